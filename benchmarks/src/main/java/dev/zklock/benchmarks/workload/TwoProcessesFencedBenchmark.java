package dev.zklock.benchmarks.workload;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Threads;

/**
 * Workload 4t: one key, two JVMs of 8 threads each, every holder in both JVMs asking for its
 * fencing token before its (empty) work (see {@link TwoJvmBenchmark}). Curator's
 * {@code InterProcessMutex} has no token: its rows are the plain cycle, the baselines zklock's
 * tokens are measured against.
 */
public class TwoProcessesFencedBenchmark extends TwoJvmBenchmark {

	private static final String KEY = "two-processes-fenced";

	/** The library under test. */
	@Param({ "curator", "curator-per-thread", "zklock" })
	public String library = "zklock";

	@Override
	protected String library() {
		return this.library;
	}

	@Override
	protected Class<TwoProcessesFencedBenchmark> benchmark() {
		return TwoProcessesFencedBenchmark.class;
	}

	@Override
	protected boolean fenced() {
		return true;
	}

	@Override
	protected String key() {
		return KEY;
	}

	@Benchmark
	@Threads(THREADS)
	public long eightThreadsEach() throws Exception {
		return lockCycle();
	}

}
