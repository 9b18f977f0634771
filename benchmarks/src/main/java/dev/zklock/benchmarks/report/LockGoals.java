package dev.zklock.benchmarks.report;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.workload.GrantCount;
import dev.zklock.lock.LockSettings;

/**
 * The goals of the instance-owned lock (local handoff, kept locks), each judged on the figures
 * of the run: the measured ratio with its interval, and whether it is met. Reported, never
 * asserted. The goals are set for the 3-server ensemble; the standalone server is judged the
 * same way, for comparison.
 */
final class LockGoals {

	private static final String P50_NOTE = "p50 speed-up (baseline's p50 ÷ zklock's)";

	/** The verdict of a figure shown beside a goal, not judged itself. */
	static final String FOR_COMPARISON = "no goal: shown beside the one above";

	private final SetupReport setup;

	private final double busyProcessors;

	private final MarkdownTable table = new MarkdownTable(
			List.of("goal", "row (workload)", "compared with", "measured", "verdict"));

	private LockGoals(SetupReport setup, double busyProcessors) {
		this.setup = setup;
		this.busyProcessors = busyProcessors;
	}

	static void append(StringBuilder out, List<SetupReport> setups, double busyProcessors) {
		out.append("## Goals of the instance-owned lock\n\n");
		out.append("Set for the 3-server ensemble; reported, not asserted. A ratio is zklock's median over its "
				+ "baseline's (same run, same setup), with its interval (least fork over the baseline's greatest, "
				+ "greatest over its least). A goal is **met** where the whole interval is on its side and "
				+ "**missed** where it is wholly on the other; **no difference** where the forks of the two overlap, "
				+ "and not decided where the interval reaches across the goal; **busy** where other processes than the run's "
				+ "own kept more than " + String.format(Locale.ROOT, "%.2f", busyProcessors)
				+ " processors busy on average during either, with what the figures alone would say.\n\n");
		appendTables(out, setups, busyProcessors, LockGoals::judge);
		FencedGoals.append(out, setups, busyProcessors);
		FloorGoals.append(out, setups, busyProcessors);
	}

	/**
	 * Judge goals on the figures of each setup into a table of its own, under the setup's name,
	 * and append them.
	 */
	static void appendTables(StringBuilder out, List<SetupReport> setups, double busyProcessors,
			Consumer<LockGoals> judge) {
		for (SetupReport setup : setups) {
			out.append("**").append(setup.setup().label()).append("**\n\n");
			appendTable(out, setup, busyProcessors, judge);
		}
	}

	/**
	 * Judge goals on the figures of one setup into a table of their own, and append it.
	 */
	private static void appendTable(StringBuilder out, SetupReport setup, double busyProcessors,
			Consumer<LockGoals> judge) {
		LockGoals goals = new LockGoals(setup, busyProcessors);
		judge.accept(goals);
		goals.table.appendTo(out);
	}

	private void judge() {
		Library defaults = Library.ZKLOCK;
		versus("1. uncontended, one thread, caching off: ≥ 1.3× throughput", JmhWorkload.UNCONTENDED, "oneThread",
				defaults, Map.of(), Measurement::throughput, 1.3, false);
		versus("1. the same: ≥ 1.3× p50", JmhWorkload.UNCONTENDED, "oneThread", defaults, Map.of(),
				Measurement::p50Micros, 1.3, true);
		versus("2. first use of a key, one thread: ≥ 1.5× throughput", JmhWorkload.FIRST_USE, "oneThread", defaults,
				Map.of(), Measurement::throughput, 1.5, false);
		versus("3. one key, 32 threads, no token asked: ≥ 20× throughput", JmhWorkload.ONE_KEY, "thirtyTwoThreads",
				defaults, Map.of(), Measurement::throughput, 20, false);
		versus("4. one key, 32 threads, every holder asks its token: ≥ 3× throughput", JmhWorkload.ONE_KEY_FENCED,
				"thirtyTwoThreads", defaults, Map.of(), Measurement::throughput, 3, false);
		TwoJvmGoals.judge(this);
		versus("6. the same key again and again, caching on: ≥ 100× throughput", JmhWorkload.UNCONTENDED,
				"oneThread", Library.ZKLOCK_KEEP, Map.of(), Measurement::throughput, 100, false);
		keptKeyTaken();
	}

	/**
	 * A row against the workload's baseline, for a goal of "at least so many times".
	 */
	private void versus(String goal, JmhWorkload workload, String method, Library library, Map<String, String> params,
			Function<Measurement, List<Double>> figure, double times, boolean inverse) {
		versus(goal, workload, method, library, workload.baseline(), params, figure, times, inverse);
	}

	/**
	 * A row against a baseline of its workload, for a goal of "at least so many times".
	 */
	void versus(String goal, JmhWorkload workload, String method, Library library, Baseline baseline,
			Map<String, String> params, Function<Measurement, List<Double>> figure, double times, boolean inverse) {
		judged(goal, workload, method, library, baseline, params, figure, inverse,
				(ratio, busy) -> GoalVerdict.atLeast(ratio, times).text(busy));
	}

	/**
	 * A row against a baseline of its workload, for a goal of "at most so many times" (a cost:
	 * a time, CPU per call).
	 */
	void atMost(String goal, JmhWorkload workload, String method, Library library, Baseline baseline,
			Map<String, String> params, Function<Measurement, List<Double>> figure, double times) {
		judged(goal, workload, method, library, baseline, params, figure, false,
				(ratio, busy) -> GoalVerdict.atMost(ratio, times).text(busy));
	}

	/**
	 * A row against a baseline of its workload, shown beside a goal without a verdict of its own.
	 */
	void compared(String goal, JmhWorkload workload, String method, Library library, Baseline baseline,
			Function<Measurement, List<Double>> figure) {
		judged(goal, workload, method, library, baseline, Map.of(), figure, false,
				(ratio, busy) -> forComparison(busy));
	}

	private void judged(String goal, JmhWorkload workload, String method, Library library, Baseline baseline,
			Map<String, String> params, Function<Measurement, List<Double>> figure, boolean inverse,
			BiFunction<Ratio, Boolean, String> verdict) {
		Optional<Measurement> row = find(workload, method, library, params);
		Optional<Measurement> base = row.flatMap((measured) -> baseline.of(measured, select(workload)));
		String baselineLabel = baseline.label(workload::plainLabel) + (inverse ? "; " + P50_NOTE : "");
		String rowLabel = library.label() + " (" + workload.number() + ")";
		if (row.isEmpty() || base.isEmpty()) {
			add(goal, rowLabel, baselineLabel, "not measured", "");
			return;
		}
		Ratio ratio = inverse ? Ratio.of(figure.apply(base.get()), figure.apply(row.get()))
				: Ratio.of(figure.apply(row.get()), figure.apply(base.get()));
		add(goal, rowLabel, baselineLabel, ratio.format(), verdict.apply(ratio, busy(row.get(), base.get())));
	}

	private void keptKeyTaken() {
		String goal = "7. another instance takes a key an idle instance keeps: p50 ≤ 2× a free key's";
		JmhWorkload workload = JmhWorkload.KEPT_KEY_TAKEN;
		Optional<Measurement> kept = find(workload, "oneThread", Library.ZKLOCK_KEEP, Map.of("key", "kept"));
		Optional<Measurement> free = kept.flatMap((row) -> workload.baseline().of(row, select(workload)));
		String row = "taker, keeper " + Library.ZKLOCK_KEEP.label() + ", key=kept (" + workload.number() + ")";
		if (kept.isEmpty() || free.isEmpty()) {
			add(goal, row, "key=free", "not measured", "");
			return;
		}
		Ratio ratio = Ratio.of(kept.get().p50Micros(), free.get().p50Micros());
		add(goal, row, "key=free, p50", ratio.format(),
				GoalVerdict.atMost(ratio, 2).text(busy(kept.get(), free.get())));
	}

	Optional<Measurement> find(JmhWorkload workload, String method, Library library, Map<String, String> params) {
		return select(workload).stream()
			.filter((m) -> m.method().equals(method) && m.library().equals(library.id()) && m.params().equals(params))
			.findFirst();
	}

	List<Measurement> select(JmhWorkload workload) {
		return workload.select(this.setup.measurements());
	}

	List<GrantCount> grants() {
		return this.setup.grants();
	}

	boolean busy(Measurement... measurements) {
		List<Measurement> all = new ArrayList<>(List.of(measurements));
		return all.stream().anyMatch((m) -> m.load().isBusy(this.busyProcessors));
	}

	void add(String goal, String row, String baseline, String measured, String verdict) {
		this.table.row(List.of(goal, row, baseline, measured, verdict));
	}

	static String millis(Duration duration) {
		return duration.toMillis() + " ms";
	}

	/**
	 * Return the verdict of a figure shown beside a goal: none, and whether the machine was busy.
	 */
	static String forComparison(boolean busy) {
		return busy ? "**busy**; " + FOR_COMPARISON : FOR_COMPARISON;
	}

	/**
	 * Return a goal's factor as its text says it: {@code 50×}, {@code 0.95×}.
	 */
	static String times(double goal) {
		return BigDecimal.valueOf(goal).stripTrailingZeros().toPlainString() + "×";
	}

	static LockSettings defaults() {
		return Library.ZKLOCK.lockSettings();
	}

}
