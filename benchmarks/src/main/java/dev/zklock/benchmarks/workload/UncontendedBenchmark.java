package dev.zklock.benchmarks.workload;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Threads;

/**
 * Workload 1: uncontended lock and unlock, one thread, one key. Every cycle takes the lock,
 * does nothing, and releases it.
 */
public class UncontendedBenchmark extends ExclusiveLockBenchmark {

	private static final String KEY = "uncontended";

	/** The library under test. */
	@Param({ "floor", "curator", "spring-integration", "zklock", "zklock-per-call", "zklock-keep", "zklocked",
			"shape-event-thread", "shape-caller-waits", "shape-two-multis",
			"shape-two-multis-handle", "shape-two-multis-sync" })
	public String library = "zklock";

	@Override
	protected String library() {
		return this.library;
	}

	@Benchmark
	@Threads(1)
	public void oneThread() throws Exception {
		lockCycle(KEY);
	}

}
