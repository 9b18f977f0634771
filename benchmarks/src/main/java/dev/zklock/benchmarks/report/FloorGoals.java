package dev.zklock.benchmarks.report;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.zklock.benchmarks.library.Library;

/**
 * The goals of the uncontended call at the floor: one thread on a key nobody else wants, judged
 * against the floor (a bare synchronous create and delete of one node by the same client) in the
 * same run, in throughput, p99 and the CPU time of the benchmark's process per call; the bytes
 * allocated per call against their budget; and many threads on keys of their own against the
 * floor at as many threads, which is what the server itself can do with the same writes.
 */
final class FloorGoals {

	static final double THROUGHPUT_GOAL = 0.95;

	static final double P99_GOAL = 1.3;

	static final double CPU_GOAL = 1.3;

	static final double DISTINCT_KEYS_GOAL = 0.8;

	/**
	 * The bytes zklock may allocate per uncontended call (its defaults, one thread): what
	 * Curator's {@code InterProcessMutex} allocates for the same three requests (13.0 to 13.2 kB
	 * at {@code b7ba481}, where zklock allocated 18.5 to 19.0 kB and the floor's two requests
	 * 6.8 to 7.3 kB).
	 */
	static final double ALLOCATION_BUDGET_BYTES = 13_000;

	private FloorGoals() {
	}

	static void append(StringBuilder out, List<SetupReport> setups, double busyProcessors) {
		out.append("## Goals of the uncontended call: at the floor\n\n");
		out.append("Judged against the floor (*").append(Library.FLOOR.label())
			.append("*: a synchronous create and delete of one node by the same client, no lock) in the same run. "
					+ "CPU per call is the CPU time of the benchmark's whole process (every thread: the caller's, the "
					+ "client's, the library's, the collector's) over an iteration, divided by its calls; the servers "
					+ "run in other processes; with a short warmup it holds the JIT compiler's work too, so judge it on a "
					+ "run with `-Dbench.warmupIterations=10`. Allocation per call is JMH's GC profiler's "
					+ "`gc.alloc.rate.norm`.\n\n");
		LockGoals.appendTables(out, setups, busyProcessors, FloorGoals::judge);
	}

	private static void judge(LockGoals goals) {
		Baseline floor = Baseline.library(Library.FLOOR);
		goals.versus("1. one thread, nothing kept (zklock's defaults): ≥ " + LockGoals.times(THROUGHPUT_GOAL)
				+ " the floor's throughput", JmhWorkload.UNCONTENDED, "oneThread", Library.ZKLOCK, floor, Map.of(),
				Measurement::throughput, THROUGHPUT_GOAL, false);
		goals.compared("1. zklock's two transactions without a lock (synchronous on the ZooKeeper handle, as a "
				+ "waiting call sends them)", JmhWorkload.UNCONTENDED, "oneThread", Library.SHAPE_TWO_MULTIS_SYNC, floor,
				Measurement::throughput);
		goals.compared("1. the same, asynchronous on the ZooKeeper handle", JmhWorkload.UNCONTENDED, "oneThread",
				Library.SHAPE_TWO_MULTIS_HANDLE, floor, Measurement::throughput);
		goals.compared("1. the same, Curator's background requests", JmhWorkload.UNCONTENDED, "oneThread",
				Library.SHAPE_TWO_MULTIS, floor, Measurement::throughput);
		goals.atMost("2. the same: p99 ≤ " + LockGoals.times(P99_GOAL) + " the floor's p99", JmhWorkload.UNCONTENDED,
				"oneThread", Library.ZKLOCK, floor, Map.of(), Measurement::p99Micros, P99_GOAL);
		goals.atMost("3. the same: CPU per call ≤ " + LockGoals.times(CPU_GOAL) + " the floor's",
				JmhWorkload.UNCONTENDED, "oneThread", Library.ZKLOCK, floor, Map.of(), Measurement::cpuNanos,
				CPU_GOAL);
		goals.compared("3. the same, Curator's CPU per call", JmhWorkload.UNCONTENDED, "oneThread", Library.CURATOR,
				floor, Measurement::cpuNanos);
		goals.compared("3. the two transactions' CPU per call, Curator's background requests", JmhWorkload.UNCONTENDED,
				"oneThread", Library.SHAPE_TWO_MULTIS, floor, Measurement::cpuNanos);
		goals.compared("3. the same on the ZooKeeper handle, asynchronous (replies via the event thread)",
				JmhWorkload.UNCONTENDED, "oneThread", Library.SHAPE_TWO_MULTIS_HANDLE, floor, Measurement::cpuNanos);
		goals.compared("3. the same on the ZooKeeper handle, synchronous (the caller wakes on its reply)",
				JmhWorkload.UNCONTENDED, "oneThread", Library.SHAPE_TWO_MULTIS_SYNC, floor, Measurement::cpuNanos);
		allocation(goals);
		goals.versus("5. 32 threads, a key each: ≥ " + LockGoals.times(DISTINCT_KEYS_GOAL)
				+ " the floor's throughput at 32 threads", JmhWorkload.DISTINCT_KEYS, "thirtyTwoThreads",
				Library.ZKLOCK, floor, Map.of(), Measurement::throughput, DISTINCT_KEYS_GOAL, false);
		goals.compared("5. the same, Curator", JmhWorkload.DISTINCT_KEYS, "thirtyTwoThreads", Library.CURATOR, floor,
				Measurement::throughput);
		goals.compared("5. the same, 8 threads", JmhWorkload.DISTINCT_KEYS, "eightThreads", Library.ZKLOCK, floor,
				Measurement::throughput);
	}

	/**
	 * The bytes allocated per uncontended call, each fork's against the budget.
	 */
	private static void allocation(LockGoals goals) {
		String goal = "4. the same: allocated per call ≤ " + Spread.number(ALLOCATION_BUDGET_BYTES) + " B (the budget)";
		String row = Library.ZKLOCK.label() + " (" + JmhWorkload.UNCONTENDED.number() + ")";
		Optional<Measurement> measured = goals.find(JmhWorkload.UNCONTENDED, "oneThread", Library.ZKLOCK, Map.of());
		if (measured.isEmpty() || measured.get().allocatedBytes().isEmpty()) {
			goals.add(goal, row, "the budget", "not measured", "");
			return;
		}
		Spread bytes = Spread.of(measured.get().allocatedBytes());
		goals.add(goal, row, "the budget", bytes.format() + " B",
				GoalVerdict.everyAtMost(bytes, ALLOCATION_BUDGET_BYTES).text());
	}

}
