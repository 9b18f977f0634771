package dev.zklock.benchmarks.report;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.workload.GrantCount;
import dev.zklock.lock.LockSettings;

/**
 * The goals of one key shared by two JVMs of 8 threads each: goal 5 of the instance-owned lock
 * (workload 4: the combined grants against Curator's, each JVM's share, and the longest wait of a
 * JVM while the other had the key against the handoff bound), and goal 2 of fenced locks
 * (workload 4t, every holder asking its token: the combined grants against Curator with a mutex
 * per thread, and each JVM's share).
 */
final class TwoJvmGoals {

	private static final String METHOD = "eightThreadsEach";

	private static final double GRANTS_GOAL = 5;

	private static final double FENCED_GRANTS_GOAL = 10;

	private static final double SHARE_GOAL = 0.30;

	private TwoJvmGoals() {
	}

	static void judge(LockGoals goals) {
		JmhWorkload workload = JmhWorkload.TWO_PROCESSES;
		String row = Library.ZKLOCK.label() + " (" + workload.number() + ")";
		Map<String, List<GrantCount>> grants = ResultTables.grantsPerFork(workload.grants(goals.grants()));
		List<GrantCount> zklock = grants.getOrDefault(Library.ZKLOCK.id(), List.of());
		List<GrantCount> curator = grants.getOrDefault(Library.CURATOR.id(), List.of());
		boolean busy = busy(goals, workload, Library.ZKLOCK, Library.CURATOR);
		combined(goals, "5. one key, two JVMs × 8 threads: ≥ " + LockGoals.times(GRANTS_GOAL) + " both JVMs' grants/s",
				row, Library.CURATOR, zklock, curator, GRANTS_GOAL, busy);
		shares(goals, "5. the same: each JVM ≥ " + percent(SHARE_GOAL) + " of the grants", row, zklock, busy);
		longestWait(goals, row, zklock, curator, busy);
	}

	static void judgeFenced(LockGoals goals) {
		JmhWorkload workload = JmhWorkload.TWO_PROCESSES_FENCED;
		String row = Library.ZKLOCK.label() + " (" + workload.number() + ")";
		Map<String, List<GrantCount>> grants = ResultTables.grantsPerFork(workload.grants(goals.grants()));
		List<GrantCount> zklock = grants.getOrDefault(Library.ZKLOCK.id(), List.of());
		List<GrantCount> perThread = grants.getOrDefault(Library.CURATOR_PER_THREAD.id(), List.of());
		List<GrantCount> shared = grants.getOrDefault(Library.CURATOR.id(), List.of());
		combined(goals, "2. one key, two JVMs × 8 threads, every holder asks its token: ≥ "
				+ LockGoals.times(FENCED_GRANTS_GOAL) + " both JVMs' grants/s", row, Library.CURATOR_PER_THREAD,
				zklock, perThread, FENCED_GRANTS_GOAL, busy(goals, workload, Library.ZKLOCK, Library.CURATOR_PER_THREAD));
		combined(goals, "2. the same, against one mutex per key shared by each JVM's threads", row, Library.CURATOR,
				zklock, shared, Double.NaN, busy(goals, workload, Library.ZKLOCK, Library.CURATOR));
		shares(goals, "2. the same: each JVM ≥ " + percent(SHARE_GOAL) + " of the grants", row, zklock,
				busy(goals, workload, Library.ZKLOCK));
	}

	/**
	 * Both JVMs' grants per second against a baseline's, for a goal of at least so many times,
	 * or shown for comparison where the goal is {@code NaN}.
	 */
	private static void combined(LockGoals goals, String goal, String row, Library baseline, List<GrantCount> zklock,
			List<GrantCount> base, double times, boolean busy) {
		if (zklock.isEmpty() || base.isEmpty()) {
			goals.add(goal, row, baseline.label(), "not counted", "");
			return;
		}
		Ratio ratio = Ratio.of(zklock.stream().map(GrantCount::combinedPerSecond).toList(),
				base.stream().map(GrantCount::combinedPerSecond).toList());
		String verdict;
		if (Double.isNaN(times)) {
			verdict = LockGoals.forComparison(busy);
		}
		else {
			verdict = GoalVerdict.atLeast(ratio, times).text(busy);
		}
		goals.add(goal, row, baseline.label(), ratio.format(), verdict);
	}

	private static void shares(LockGoals goals, String goal, String row, List<GrantCount> zklock, boolean busy) {
		if (zklock.isEmpty()) {
			goals.add(goal, row, "", "not counted", "");
			return;
		}
		Spread smaller = Spread.of(zklock.stream().map(GrantCount::smallerShare).toList());
		goals.add(goal, row, "the smaller JVM's share, per fork",
				Spread.of(zklock.stream().map((fork) -> 100 * fork.smallerShare()).toList()).format() + " %",
				GoalVerdict.everyAtLeast(smaller, SHARE_GOAL).text(busy));
	}

	private static boolean busy(LockGoals goals, JmhWorkload workload, Library... libraries) {
		for (Library library : libraries) {
			if (goals.find(workload, METHOD, library, Map.of()).map(goals::busy).orElse(false)) {
				return true;
			}
		}
		return false;
	}

	private static String percent(double share) {
		return Math.round(100 * share) + "%";
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
