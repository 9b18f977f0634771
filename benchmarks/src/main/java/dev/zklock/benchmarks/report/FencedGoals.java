package dev.zklock.benchmarks.report;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.zklock.benchmarks.library.Library;

/**
 * The goals of fenced locks as fast as unfenced ones (a token per grant without a write per
 * grant), each judged on the figures of the run against the strongest use of Curator, an
 * {@code InterProcessMutex} per thread; the ratio to one mutex shared by the JVM's threads is
 * shown beside it, and so is the fenced row against zklock's own row without tokens.
 */
final class FencedGoals {

	private static final double ONE_KEY_GOAL = 50;

	private static final double FLOOR_GOAL = 0.95;

	private static final String ONE_KEY_METHOD = "thirtyTwoThreads";

	private FencedGoals() {
	}

	static void append(StringBuilder out, List<SetupReport> setups, double busyProcessors) {
		out.append("## Goals of fenced locks: a token per grant without a write per grant\n\n");
		out.append("Set for the 3-server ensemble and judged as the goals above, in the same run, against the "
				+ "strongest way to use Curator: one `InterProcessMutex` per thread, the library *"
				+ Library.CURATOR_PER_THREAD.label() + "*. Beside a goal, without a verdict: the ratio to one mutex "
				+ "per key shared by the JVM's threads (*" + Library.CURATOR.label() + "*, as Spring Integration uses "
				+ "it) and, for one JVM, to zklock's own row asking no token. Curator has no fencing token: its rows "
				+ "are the plain lock cycle.\n\n");
		LockGoals.appendTables(out, setups, busyProcessors, FencedGoals::judge);
	}

	private static void judge(LockGoals goals) {
		String oneKey = "1. one key, 32 threads, every holder asks its token: ≥ " + LockGoals.times(ONE_KEY_GOAL)
				+ " throughput";
		goals.versus(oneKey, JmhWorkload.ONE_KEY_FENCED, ONE_KEY_METHOD, Library.ZKLOCK,
				Baseline.library(Library.CURATOR_PER_THREAD), Map.of(), Measurement::throughput, ONE_KEY_GOAL, false);
		goals.compared("1. the same, against one mutex shared by the threads", JmhWorkload.ONE_KEY_FENCED,
				ONE_KEY_METHOD, Library.ZKLOCK, Baseline.library(Library.CURATOR), Measurement::throughput);
		againstNoToken(goals);
		TwoJvmGoals.judgeFenced(goals);
		goals.versus("3. one thread, nothing kept (zklock's defaults: a node per call when no other call waits): ≥ "
				+ LockGoals.times(FLOOR_GOAL) + " the floor's throughput (a bare create + delete of the same client)",
				JmhWorkload.UNCONTENDED, "oneThread", Library.ZKLOCK, Baseline.library(Library.FLOOR), Map.of(),
				Measurement::throughput, FLOOR_GOAL, false);
		goals.compared("3. the same, a node per call (handoff off)", JmhWorkload.UNCONTENDED, "oneThread",
				Library.ZKLOCK_PER_CALL, Baseline.library(Library.FLOOR), Measurement::throughput);
	}

	/**
	 * The fenced row (workload 2t) against zklock's own row of the same threads asking no token
	 * (workload 2): what the tokens cost.
	 */
	private static void againstNoToken(LockGoals goals) {
		String goal = "1. the same, against zklock asking no token";
		Optional<Measurement> fenced = goals.find(JmhWorkload.ONE_KEY_FENCED, ONE_KEY_METHOD, Library.ZKLOCK,
				Map.of());
		Optional<Measurement> plain = goals.find(JmhWorkload.ONE_KEY, ONE_KEY_METHOD, Library.ZKLOCK, Map.of());
		String row = Library.ZKLOCK.label() + " (" + JmhWorkload.ONE_KEY_FENCED.number() + ")";
		String baseline = Library.ZKLOCK.label() + ", no token asked (" + JmhWorkload.ONE_KEY.number() + ", 32 threads)";
		if (fenced.isEmpty() || plain.isEmpty()) {
			goals.add(goal, row, baseline, "not measured", "");
			return;
		}
		Ratio ratio = Ratio.of(fenced.get().throughput(), plain.get().throughput());
		goals.add(goal, row, baseline, ratio.format(),
				LockGoals.forComparison(goals.busy(fenced.get(), plain.get())));
	}

}
