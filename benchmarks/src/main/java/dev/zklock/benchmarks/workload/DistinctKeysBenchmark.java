package dev.zklock.benchmarks.workload;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Workload 3: 8 or 32 threads of one JVM sharing one client, each locking a key of its own.
 * Nothing is contended but the client and the server; the floor's row is what the ensemble
 * itself can do with the same writes.
 */
public class DistinctKeysBenchmark extends ExclusiveLockBenchmark {

	/**
	 * The library under test; the shapes are zklock's requests without a lock around them
	 * (three requests, or two transactions), to show what each costs a server at its limit.
	 */
	@Param({ "floor", "curator", "spring-integration", "zklock", "shape-event-thread", "shape-two-multis" })
	public String library = "zklock";

	@Override
	protected String library() {
		return this.library;
	}

	@Benchmark
	@Threads(8)
	public void eightThreads(ThreadKey key) throws Exception {
		lockCycle(key.key);
	}

	@Benchmark
	@Threads(32)
	public void thirtyTwoThreads(ThreadKey key) throws Exception {
		lockCycle(key.key);
	}

	/**
	 * The key of one benchmark thread.
	 */
	@State(Scope.Thread)
	public static class ThreadKey {

		String key = "";

		@Setup(Level.Trial)
		public void name(ThreadParams thread) {
			this.key = "distinct-" + thread.getThreadIndex();
		}

	}

}
