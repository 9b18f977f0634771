package dev.zklock.benchmarks.report;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.workload.GrantCount;
import dev.zklock.lock.LockSettings;

/**
 * Goal 5 of the instance-owned lock, one key shared by two JVMs of 8 threads each (workload 4):
 * the combined grants against Curator's, each JVM's share, and the longest wait of a JVM while
 * the other had the key against the handoff bound.
 */
final class TwoJvmGoals {

	private static final double GRANTS_GOAL = 5;

	private static final double SHARE_GOAL = 0.30;

	private TwoJvmGoals() {
	}

	static void judge(LockGoals goals) {
		JmhWorkload workload = JmhWorkload.TWO_PROCESSES;
		String row = Library.ZKLOCK.label() + " (" + workload.number() + ")";
		Map<String, List<GrantCount>> grants = ResultTables.grantsPerFork(goals.grants());
		List<GrantCount> zklock = grants.getOrDefault(Library.ZKLOCK.id(), List.of());
		List<GrantCount> curator = grants.getOrDefault(Library.CURATOR.id(), List.of());
		Optional<Measurement> zklockRow = goals.find(workload, "eightThreadsEach", Library.ZKLOCK, Map.of());
		Optional<Measurement> curatorRow = goals.find(workload, "eightThreadsEach", Library.CURATOR, Map.of());
		boolean busy = zklockRow.map(goals::busy).orElse(false) || curatorRow.map(goals::busy).orElse(false);
		String grantsGoal = "5. one key, two JVMs × 8 threads: ≥ 5× both JVMs' grants/s";
		if (zklock.isEmpty() || curator.isEmpty()) {
			goals.add(grantsGoal, row, Library.CURATOR.label(), "not counted", "");
		}
		else {
			Ratio ratio = Ratio.of(zklock.stream().map(GrantCount::combinedPerSecond).toList(),
					curator.stream().map(GrantCount::combinedPerSecond).toList());
			goals.add(grantsGoal, row, Library.CURATOR.label(), ratio.format(),
					GoalVerdict.atLeast(ratio, GRANTS_GOAL).text(busy));
		}
		String shareGoal = "5. the same: each JVM ≥ 30% of the grants";
		if (zklock.isEmpty()) {
			goals.add(shareGoal, row, "", "not counted", "");
		}
		else {
			Spread smaller = Spread.of(zklock.stream().map(GrantCount::smallerShare).toList());
			goals.add(shareGoal, row, "the smaller JVM's share, per fork",
					Spread.of(zklock.stream().map((fork) -> 100 * fork.smallerShare()).toList()).format() + " %",
					GoalVerdict.everyAtLeast(smaller, SHARE_GOAL).text(busy));
		}
		longestWait(goals, row, zklock, curator, busy);
	}

	/**
	 * The longest gap between two grants of one JVM against the bound of docs/lock-core.md (a
	 * remote waiter whose node is next waits at most one round trip to be seen, max-time and one
	 * hold of local grants, and one delete). The gap spans the other JVM's whole turn, so it adds
	 * to the bound the round trips around it: our delete, the other's read, and ours after its
	 * delete. The round trips are taken from the same run: twice the p50 of a per-call cycle
	 * (workload 1, {@code PER_CALL}: a pipelined create and read, then a delete: two round trips
	 * each); the hold is empty.
	 */
	private static void longestWait(LockGoals goals, String row, List<GrantCount> zklock, List<GrantCount> curator,
			boolean busy) {
		LockSettings settings = LockGoals.defaults();
		String goal = "5. the same: longest wait of a remote waiter, against the bound (max-grants "
				+ settings.handoffMaxGrants() + ", max-time " + LockGoals.millis(settings.handoffMaxTime()) + ")";
		if (zklock.isEmpty()) {
			goals.add(goal, row, "", "not counted", "");
			return;
		}
		Spread gaps = Spread.of(zklock.stream().map(GrantCount::longestGapMillis).toList());
		String curatorGaps = curator.isEmpty() ? "not counted"
				: Spread.of(curator.stream().map(GrantCount::longestGapMillis).toList()).format() + " ms";
		Optional<Measurement> perCall = goals.find(JmhWorkload.UNCONTENDED, "oneThread", Library.ZKLOCK_PER_CALL,
				Map.of());
		String measured = gaps.format() + " ms (Curator: " + curatorGaps + ")";
		if (perCall.isEmpty()) {
			goals.add(goal, row, "bound: max-time + a round trip + a delete (not measured)", measured, "");
			return;
		}
		double roundTrips = 2 * Spread.of(perCall.get().p50Micros()).median() / 1000;
		double bound = settings.handoffMaxTime().toNanos() / 1e6 + roundTrips;
		long beyond = zklock.stream().filter((fork) -> fork.longestGapMillis() > bound).count();
		String verdict = (beyond == 0) ? "within the bound in every fork"
				: "**beyond the bound** in " + beyond + " of " + zklock.size() + " forks";
		verdict = busy ? GoalVerdict.busy(verdict) : verdict;
		goals.add(goal, row,
				"bound " + Spread.number(bound) + " ms: max-time + " + Spread.number(roundTrips)
						+ " ms (2 × p50 of a PER_CALL cycle, workload 1: four round trips)",
				measured, verdict);
	}

}
