package dev.zklock.benchmarks.workload;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Threads;

/**
 * Workload 4: one key, two JVMs of 8 threads each, the plain lock cycle (see
 * {@link TwoJvmBenchmark}).
 */
public class TwoProcessesBenchmark extends TwoJvmBenchmark {

	private static final String KEY = "two-processes";

	/** The library under test. */
	@Param({ "curator", "curator-per-thread", "spring-integration", "zklock" })
	public String library = "zklock";

	@Override
	protected String library() {
		return this.library;
	}

	@Override
	protected Class<TwoProcessesBenchmark> benchmark() {
		return TwoProcessesBenchmark.class;
	}

	@Override
	protected boolean fenced() {
		return false;
	}

	@Override
	protected String key() {
		return KEY;
	}

	@Benchmark
	@Threads(THREADS)
	public void eightThreadsEach() throws Exception {
		lockCycle();
	}

}
