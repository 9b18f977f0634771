package dev.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.zklock.benchmarks.workload.UncontendedInTurns;
import dev.zklock.benchmarks.workload.UncontendedInTurns.Fork;
import dev.zklock.benchmarks.workload.UncontendedInTurns.Side;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TurnsReport}: workload 1i's goals judged on each fork's own ratios, on
 * made-up figures of three forks.
 */
class TurnsReportTests {

	private static final LoadAverage QUIET = new LoadAverage(0.5, 0.5, 0.5);

	@Test
	void everyForkOnTheGoalsSideMeetsIt() {
		List<String> lines = render(0.0, fork(1_000, 980, 0.97), fork(1_000, 1_010, 1.00), fork(1_000, 960, 0.96));

		assertThat(row(lines, "calls per second")).contains("| 0.970× (0.960–1.00×) |", "| ≥ 0.95× |")
			.endsWith("| **met** |");
		assertThat(row(lines, "p99 (µs)")).contains("| 1.20× |").endsWith("| **met** |");
		assertThat(row(lines, "CPU per call, the whole process (µs)")).contains("| 250 |", "| 300 |", "| 1.20× |")
			.endsWith("| **met** |");
		assertThat(row(lines, "the same without the JIT compiler's threads (µs)")).contains("| 200 |", "| 250 |",
				"| 1.25× |").endsWith("| **met** |");
		assertThat(row(lines, "the compiler's share of the process's CPU (%)")).contains("| 20.0 |", "| 16.7 |");
		assertThat(row(lines, "bytes allocated per call")).contains("| 6,000 |", "| 12,000 |")
			.endsWith("| **met** |");
		assertThat(lines).contains("| 3 | 60,000 | 57,600 | 60,000 | 0.960× (0.900–1.06×) |");
		assertThat(row(lines, "the same, synchronous on the handle (no lock) (`shape-two-multis-sync`)")).contains("| 1,000 |", "| 0.990× |", "| 260 |", "| 1.04× |",
				"| 8,000 |");
	}

	@Test
	void oneForkBelowTheGoalLeavesItUndecidedAndAMedianBelowMissesIt() {
		List<String> undecided = render(0.0, fork(1_000, 980, 0.97), fork(1_000, 900, 0.90), fork(1_000, 960, 0.96));
		List<String> missed = render(0.0, fork(1_000, 900, 0.90), fork(1_000, 900, 0.90), fork(1_000, 960, 0.96));

		assertThat(row(undecided, "calls per second"))
			.endsWith("| not decided: the interval reaches across the goal |");
		assertThat(row(missed, "calls per second")).endsWith("| **missed** |");
	}

	@Test
	void withZkLocksOwnRequestsInTheRunTheThroughputGoalIsJudgedAgainThemBesideTheFloor() {
		List<String> lines = render(0.0, withOwnRequests(fork(1_000, 900, 0.90), 0.93),
				withOwnRequests(fork(1_000, 910, 0.91), 0.95), withOwnRequests(fork(1_000, 920, 0.92), 0.94));
		List<String> undecided = render(0.0, withOwnRequests(fork(1_000, 900, 0.90), 0.93),
				withOwnRequests(fork(1_000, 910, 0.91), 1.00), withOwnRequests(fork(1_000, 920, 0.92), 0.94));

		assertThat(row(lines, "calls per second")).endsWith("| **missed** |");
		assertThat(lines).anySatisfy((line) -> assertThat(line).startsWith("The throughput goal is set against the floor."));
		String ownRequests = lines.stream()
			.filter((line) -> line.startsWith("| calls per second |"))
			.skip(1)
			.findFirst()
			.orElseThrow(() -> new AssertionError("No second row of calls per second in " + lines));
		assertThat(ownRequests).contains("| 940 (930–950) |", "| 910 (900–920) |", "| 0.968× (0.958–0.979×) |", "| ≥ 0.95× |")
			.endsWith("| **met** |");
		assertThat(undecided.stream().filter((line) -> line.startsWith("| calls per second |")).skip(1).findFirst())
			.hasValueSatisfying((line) -> assertThat(line)
				.contains("| 0.968× (0.910–0.979×) |")
				.endsWith("| not decided: the interval reaches across the goal |"));
	}

	@Test
	void withoutZkLocksOwnRequestsInTheRunTheGoalIsJudgedAgainstTheFloorAlone() {
		List<String> lines = render(0.0, fork(1_000, 980, 0.97), fork(1_000, 1_010, 1.00), fork(1_000, 960, 0.96));

		assertThat(lines.stream().filter((line) -> line.startsWith("| calls per second |"))).hasSize(1);
		assertThat(lines).noneSatisfy((line) -> assertThat(line).startsWith("The throughput goal is set against"));
	}

	@Test
	void manyThreadsAreJudgedOnThroughputAloneAgainstTheirOwnGoal() {
		List<String> lines = render(32, 0.0, fork(1_000, 850, 0.85), fork(1_000, 820, 0.82), fork(1_000, 900, 0.90));

		assertThat(lines).contains("#### 3i. 32 threads, a key each, in turns with the floor at as many threads");
		assertThat(row(lines, "calls per second")).contains("| ≥ 0.8× |").endsWith("| **met** |");
		assertThat(row(lines, "p99 (µs)")).endsWith("| 1.20× |  |  |");
		assertThat(row(lines, "CPU per call, the whole process (µs)")).endsWith("| 1.20× |  |  |");
		assertThat(row(lines, "bytes allocated per call")).endsWith("|  |  |");
		assertThat(row(render(32, 0.0, fork(1_000, 850, 0.85), fork(1_000, 780, 0.78), fork(1_000, 900, 0.90)),
				"calls per second")).endsWith("| not decided: the interval reaches across the goal |");
	}

	@Test
	void forksRunWhileOtherProcessesKeptTheMachineBusyAreNotForComparison() {
		List<String> lines = render(1.5, fork(1_000, 980, 0.97), fork(1_000, 1_010, 1.00), fork(1_000, 960, 0.96));

		assertThat(lines).anySatisfy((line) -> assertThat(line).contains("1.50 processors busy"));
		assertThat(row(lines, "calls per second")).endsWith("| **busy**: not for comparison (the figures alone: met) |");
	}

	/**
	 * A fork of 60 s a side, zklock at 1.2× the floor's p99, CPU and CPU without the compiler as
	 * the rows above expect, and twice its bytes; the two transactions alone beside them.
	 */
	private static Fork fork(long floorPerSecond, long zkLockPerSecond, double ratio) {
		long nanos = 60_000_000_000L;
		long floorCalls = floorPerSecond * 60;
		long zkLockCalls = zkLockPerSecond * 60;
		Side floor = new Side("floor", floorCalls, nanos, floorCalls * 250_000, floorCalls * 50_000, floorCalls * 6_000,
				1_000_000, 5_000_000, 1, 1, 1);
		Side zkLock = new Side("zklock", zkLockCalls, nanos, zkLockCalls * 300_000, zkLockCalls * 50_000,
				zkLockCalls * 12_000, 1_100_000, 6_000_000, ratio, ratio - 0.06, ratio + 0.1);
		Side shape = new Side("shape-two-multis-sync", floorCalls, nanos, floorCalls * 260_000, 0,
				floorCalls * 8_000, 1_050_000, 5_500_000, 0.99, 0.9, 1.1);
		return new Fork(List.of(floor, zkLock, shape));
	}

	/**
	 * The fork with zklock's own requests beside it, at the given ratio to the floor and at the
	 * floor's other figures.
	 */
	private static Fork withOwnRequests(Fork fork, double ratio) {
		Side floor = fork.floor();
		long calls = Math.round(floor.calls() * ratio);
		Side ownRequests = new Side("shape-two-multis-named", calls, floor.nanos(), calls * 270_000, 0, calls * 9_000,
				1_060_000, 5_600_000, ratio, ratio - 0.05, ratio + 0.05);
		List<Side> sides = new ArrayList<>(fork.sides());
		sides.add(ownRequests);
		return new Fork(sides);
	}

	private static List<String> render(double otherProcessors, UncontendedInTurns.Fork... forks) {
		return render(1, otherProcessors, forks);
	}

	private static List<String> render(int threads, double otherProcessors, UncontendedInTurns.Fork... forks) {
		StringBuilder out = new StringBuilder();
		new TurnsReport(threads, List.of(forks), new Measurement.Load(QUIET, QUIET, otherProcessors)).appendTo(out, 0.25);
		return Arrays.asList(out.toString().split("\n"));
	}

	private static String row(List<String> lines, String figure) {
		return lines.stream()
			.filter((line) -> line.startsWith("| " + figure + " |"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No row for '" + figure + "' in " + lines));
	}

}
