package dev.zklock.benchmarks.workload;

import java.util.UUID;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Threads;

/**
 * Workload 1f: the first use of a key, one thread. Every cycle locks a key that neither this
 * JVM nor any other has used before (a random prefix per trial and a counter), so its key node
 * does not exist yet: the library has to create it. The empty key nodes left behind are
 * container nodes, which the server removes by itself.
 */
public class FirstUseBenchmark extends ExclusiveLockBenchmark {

	/** The library under test. */
	@Param({ "curator", "zklock" })
	public String library = "zklock";

	private final String prefix = "first-use-" + UUID.randomUUID() + "-";

	private long keys;

	@Override
	protected String library() {
		return this.library;
	}

	@Benchmark
	@Threads(1)
	public void oneThread() throws Exception {
		lockCycle(this.prefix + this.keys++);
	}

}
