package dev.zklock.benchmarks.workload;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Threads;

/**
 * Workload 2: one key, many threads of one JVM sharing one client. The lock is never free for
 * long, so the throughput is the rate of handoffs from one thread to the next.
 */
public class OneKeyContendedBenchmark extends ExclusiveLockBenchmark {

	private static final String KEY = "contended";

	/** The library under test. */
	@Param({ "curator", "spring-integration", "zklock", "zklock-per-call" })
	public String library = "zklock";

	@Override
	protected String library() {
		return this.library;
	}

	@Benchmark
	@Threads(8)
	public void eightThreads() throws Exception {
		lockCycle(KEY);
	}

	@Benchmark
	@Threads(32)
	public void thirtyTwoThreads() throws Exception {
		lockCycle(KEY);
	}

}
