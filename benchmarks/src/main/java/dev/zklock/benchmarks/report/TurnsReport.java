package dev.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.workload.UncontendedInTurns;

/**
 * Workload 1i as measured against one setup with one number of threads: its forks, and the
 * load around them.
 *
 * @param threads the threads of each library: one on one key, or more on a key each
 * @param forks one result per fork
 * @param load the load around all the forks
 */
public record TurnsReport(int threads, List<UncontendedInTurns.Fork> forks, Measurement.Load load) {

	private static final String FLOOR = Library.FLOOR.id();

	private static final String ZKLOCK = Library.ZKLOCK.id();

	private static final String OWN_REQUESTS = Library.SHAPE_TWO_MULTIS_NAMED.id();

	/**
	 * Append the workload's section: each side's figures, zklock's over the floor's in each fork,
	 * and the goals of the uncontended call judged on those ratios.
	 */
	void appendTo(StringBuilder out, double busyProcessors) {
		if (this.threads == 1) {
			out.append("#### 1i. The uncontended call and the floor in turns\n\n");
			out.append("One thread, one key, nothing kept: the floor (a synchronous create and delete by its own "
					+ "client) and zklock's defaults (on a client of their own) take turns of equal length in one JVM, "
					+ "first to warm up, then measured in rounds (a turn of each, each round starting one further "
					+ "along), so that both meet the same moments of the disk's syncs. ");
		}
		else {
			out.append("#### 3i. ").append(this.threads).append(" threads, a key each, in turns with the floor at as "
					+ "many threads\n\n");
			out.append("Nothing kept: in each turn ").append(this.threads).append(" threads of the library, each on a "
					+ "key of its own, make calls one after the other; the floor (synchronous creates and deletes) "
					+ "and zklock's defaults, each on a client of its own, take turns of equal length in one JVM, "
					+ "first to warm up, then measured in rounds (a turn of each, each round starting one further "
					+ "along), so that both meet the same moments of the disk's syncs. ");
		}
		out.append("Each fork is a JVM of its own, with the JMH forks' options, and compares them within itself; a "
				+ "cell is the median of the forks (least–greatest fork). Throughput is the median of the fork's "
				+ "rounds' ratios; p50 and p99 are over all the fork's measured calls of a side; CPU is the whole "
				+ "process's (every thread) during a side's turns, and again without the JIT compiler's threads "
				+ "(their time from `/proc`); bytes are every thread's. A goal is **met** where every fork's ratio "
				+ "is on its side, **missed** where the median is on the other, and not decided otherwise.\n\n");
		boolean busy = this.load.isBusy(busyProcessors);
		if (busy) {
			out.append("Other processes kept ")
				.append(String.format(Locale.ROOT, "%.2f", this.load.otherProcessors()))
				.append(" processors busy on average during these forks: **busy**, not for comparison.\n\n");
		}
		MarkdownTable table = new MarkdownTable(
				List.of("figure", "floor", "zklock (defaults)", "zklock ÷ floor, each fork's own", "goal", "verdict"));
		boolean one = (this.threads == 1);
		double throughputGoal = one ? FloorGoals.THROUGHPUT_GOAL : FloorGoals.DISTINCT_KEYS_GOAL;
		table.row(List.of("calls per second", figure(FLOOR, UncontendedInTurns.Side::perSecond, 1),
				figure(ZKLOCK, UncontendedInTurns.Side::perSecond, 1), ratio(UncontendedInTurns.Fork::throughputRatio),
				"≥ " + LockGoals.times(throughputGoal),
				GoalVerdict.everyAtLeast(spread(UncontendedInTurns.Fork::throughputRatio), throughputGoal).text(busy)));
		table.row(List.of("p50 (µs)", figure(FLOOR, (side) -> side.p50Nanos(), 1e-3),
				figure(ZKLOCK, (side) -> side.p50Nanos(), 1e-3),
				ratio((fork) -> (double) fork.zkLock().p50Nanos() / fork.floor().p50Nanos()), "", ""));
		table.row(List.of("p99 (µs)", figure(FLOOR, (side) -> side.p99Nanos(), 1e-3),
				figure(ZKLOCK, (side) -> side.p99Nanos(), 1e-3), ratio(UncontendedInTurns.Fork::p99Ratio),
				one ? "≤ " + LockGoals.times(FloorGoals.P99_GOAL) : "",
				one ? GoalVerdict.everyAtMost(spread(UncontendedInTurns.Fork::p99Ratio), FloorGoals.P99_GOAL).text(busy)
						: ""));
		table.row(List.of("CPU per call, the whole process (µs)",
				figure(FLOOR, UncontendedInTurns.Side::cpuPerCall, 1e-3),
				figure(ZKLOCK, UncontendedInTurns.Side::cpuPerCall, 1e-3), ratio(UncontendedInTurns.Fork::cpuRatio),
				one ? "≤ " + LockGoals.times(FloorGoals.CPU_GOAL) : "",
				one ? GoalVerdict.everyAtMost(spread(UncontendedInTurns.Fork::cpuRatio), FloorGoals.CPU_GOAL).text(busy)
						: ""));
		boolean compilerKnown = this.forks.stream()
			.noneMatch((fork) -> Double.isNaN(fork.cpuWithoutCompilerRatio()));
		table.row(List.of("the same without the JIT compiler's threads (µs)",
				compilerKnown ? figure(FLOOR, UncontendedInTurns.Side::cpuWithoutCompilerPerCall, 1e-3) : "not known",
				compilerKnown ? figure(ZKLOCK, UncontendedInTurns.Side::cpuWithoutCompilerPerCall, 1e-3) : "not known",
				compilerKnown ? ratio(UncontendedInTurns.Fork::cpuWithoutCompilerRatio) : "",
				one ? "≤ " + LockGoals.times(FloorGoals.CPU_GOAL) + ", if judged without the compiler" : "",
				(compilerKnown && one) ? GoalVerdict
					.everyAtMost(spread(UncontendedInTurns.Fork::cpuWithoutCompilerRatio), FloorGoals.CPU_GOAL)
					.text(busy) : ""));
		table.row(List.of("the compiler's share of the process's CPU (%)",
				compilerKnown ? figure(FLOOR, UncontendedInTurns.Side::compilerShare, 100) : "not known",
				compilerKnown ? figure(ZKLOCK, UncontendedInTurns.Side::compilerShare, 100) : "not known", "", "", ""));
		table.row(List.of("bytes allocated per call", figure(FLOOR, UncontendedInTurns.Side::bytesPerCall, 1),
				figure(ZKLOCK, UncontendedInTurns.Side::bytesPerCall, 1),
				ratio((fork) -> fork.zkLock().bytesPerCall() / fork.floor().bytesPerCall()),
				one ? "zklock ≤ " + Spread.number(FloorGoals.ALLOCATION_BUDGET_BYTES) + " B (the budget)" : "",
				one ? GoalVerdict
					.everyAtMost(Spread.of(this.forks.stream().map((fork) -> fork.zkLock().bytesPerCall()).toList()),
							FloorGoals.ALLOCATION_BUDGET_BYTES)
					.text(busy) : ""));
		table.appendTo(out);
		if (one && this.forks.stream().allMatch((fork) -> fork.side(OWN_REQUESTS).isPresent())) {
			appendOwnRequestsGoal(out, throughputGoal, busy);
		}
		List<UncontendedInTurns.Side> first = this.forks.get(0).sides();
		if (first.size() > 2) {
			out.append("Beside them, in the same rounds, with no goal of their own (what each one's call is: the table "
					+ "of libraries above):\n\n");
			MarkdownTable beside = new MarkdownTable(List.of("library", "calls per second", "÷ floor, each fork's own",
					"p50 (µs)", "CPU per call (µs)", "÷ floor", "bytes allocated per call"));
			for (UncontendedInTurns.Side side : first.subList(2, first.size())) {
				String library = side.library();
				beside.row(List.of(Library.of(library).label() + " (`" + library + "`)",
						figure(library, UncontendedInTurns.Side::perSecond, 1),
						ratio((fork) -> side(fork, library).turnRatio()),
						figure(library, (each) -> each.p50Nanos(), 1e-3),
						figure(library, UncontendedInTurns.Side::cpuPerCall, 1e-3),
						ratio((fork) -> side(fork, library).cpuPerCall() / fork.floor().cpuPerCall()),
						figure(library, UncontendedInTurns.Side::bytesPerCall, 1)));
			}
			beside.appendTo(out);
		}
		List<String> header = new ArrayList<>(List.of("fork"));
		first.forEach((side) -> header.add(side.library() + "'s calls"));
		header.add("zklock ÷ floor: median of the rounds (least–greatest round)");
		MarkdownTable perFork = new MarkdownTable(header);
		for (int i = 0; i < this.forks.size(); i++) {
			UncontendedInTurns.Fork fork = this.forks.get(i);
			List<String> cells = new ArrayList<>(List.of(Integer.toString(i + 1)));
			fork.sides().forEach((side) -> cells.add(Spread.number(side.calls())));
			UncontendedInTurns.Side zkLock = fork.zkLock();
			cells.add(Spread.number(zkLock.turnRatio()) + "× (" + Spread.number(zkLock.leastTurnRatio()) + "–"
					+ Spread.number(zkLock.greatestTurnRatio()) + "×)");
			perFork.row(cells);
		}
		perFork.appendTo(out);
	}

	/**
	 * Judge the throughput goal a second time, against the requests zklock's call sends without
	 * its lock: the same two transactions with the same node name and data. The goal is set
	 * against the floor; this shows how much of what is left is the core's own work.
	 */
	private void appendOwnRequestsGoal(StringBuilder out, double throughputGoal, boolean busy) {
		out.append("The throughput goal is set against the floor. Judged again against zklock's own requests without "
				+ "the lock (`").append(OWN_REQUESTS).append("`: the same two transactions, the same node name and "
						+ "owner data), it shows what the core's own work costs; the goal's verdict above stays the "
						+ "floor's. Each fork's ratio is zklock's over the floor divided by theirs over the floor, "
						+ "both medians of the same rounds.\n\n");
		MarkdownTable table = new MarkdownTable(List.of("figure", "zklock's own requests, no lock",
				"zklock (defaults)", "zklock ÷ its own requests, each fork's own", "goal", "verdict"));
		table.row(List.of("calls per second", figure(OWN_REQUESTS, UncontendedInTurns.Side::perSecond, 1),
				figure(ZKLOCK, UncontendedInTurns.Side::perSecond, 1), ratio(TurnsReport::overOwnRequests),
				"≥ " + LockGoals.times(throughputGoal),
				GoalVerdict.everyAtLeast(spread(TurnsReport::overOwnRequests), throughputGoal).text(busy)));
		table.appendTo(out);
	}

	private static double overOwnRequests(UncontendedInTurns.Fork fork) {
		return fork.zkLock().turnRatio() / side(fork, OWN_REQUESTS).turnRatio();
	}

	private static UncontendedInTurns.Side side(UncontendedInTurns.Fork fork, String library) {
		return fork.side(library)
			.orElseThrow(() -> new IllegalStateException("A fork of workload 1i did not run " + library));
	}

	private String figure(String library, ToDoubleFunction<UncontendedInTurns.Side> figure, double scale) {
		return Spread.of(this.forks.stream().map((fork) -> figure.applyAsDouble(side(fork, library)) * scale).toList())
			.format();
	}

	private Spread spread(ToDoubleFunction<UncontendedInTurns.Fork> ratio) {
		return Spread.of(this.forks.stream().map(ratio::applyAsDouble).toList());
	}

	private String ratio(ToDoubleFunction<UncontendedInTurns.Fork> ratio) {
		return spread(ratio).format("×");
	}

}
