package dev.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.library.Subject;
import dev.zklock.benchmarks.workload.GrantCount;
import dev.zklock.benchmarks.workload.LeaderFailover;
import dev.zklock.benchmarks.workload.RequestsPerCycle;

/**
 * The result tables of the report: one per JMH workload and setup, the requests per lock
 * cycle, and the leader failover times.
 */
final class ResultTables {

	private ResultTables() {
	}

	/**
	 * Append the table of a JMH workload, or nothing if it did not run.
	 */
	static void jmh(StringBuilder out, JmhWorkload workload, SetupReport setup, double busyProcessors) {
		List<Measurement> measurements = workload.select(setup.measurements());
		if (measurements.isEmpty()) {
			return;
		}
		out.append("#### ").append(workload.number()).append(". ").append(workload.title()).append("\n\n");
		out.append(workload.note()).append("\n\n");
		Set<String> params = new LinkedHashSet<>();
		measurements.forEach((measurement) -> params.addAll(measurement.params().keySet()));
		String baseline = workload.baseline().label(workload::plainLabel);
		List<String> header = new ArrayList<>(List.of("library", "threads"));
		header.addAll(params);
		if (workload.measuresCalls()) {
			header.addAll(List.of("time per call (ns)", "vs " + baseline));
		}
		else {
			header.addAll(List.of("throughput (ops/s)", "p50 (µs)", "p99 (µs)"));
			if (workload.showsHandoffs()) {
				header.add("per handoff (µs)");
			}
			if (workload.countsGrants()) {
				header.addAll(List.of("both JVMs (grants/s)", "benchmark JVM's share of grants (%)",
						"longest gap between two grants of one JVM (ms)"));
			}
			header.addAll(List.of("throughput vs " + baseline, "p50 vs " + baseline));
		}
		boolean profiled = measurements.stream().anyMatch((measurement) -> !measurement.cpuNanos().isEmpty());
		if (profiled) {
			header.addAll(List.of("CPU per op (µs)", "CPU per op vs " + baseline, "allocated per op (B)"));
		}
		header.add("load 1 min, before → after; other processes (CPUs)");
		Map<String, List<GrantCount>> grants = grantsPerFork(workload.grants(setup.grants()));
		MarkdownTable table = new MarkdownTable(header);
		for (Measurement measurement : measurements) {
			List<String> row = new ArrayList<>(
					List.of(workload.label(measurement.library()), Integer.toString(measurement.threads())));
			params.forEach((name) -> row.add(measurement.params().getOrDefault(name, "")));
			Optional<Measurement> base = workload.baseline().of(measurement, measurements);
			if (workload.measuresCalls()) {
				row.add(Spread.of(measurement.averageNanos()).format());
				row.add(ratio(measurement, base, Measurement::averageNanos));
			}
			else {
				row.add(Spread.of(measurement.throughput()).format());
				row.add(Spread.of(measurement.p50Micros()).format());
				row.add(Spread.of(measurement.p99Micros()).format());
				if (workload.showsHandoffs()) {
					row.add(Spread.of(measurement.throughput().stream().map((rate) -> 1e6 / rate).toList()).format());
				}
				if (workload.countsGrants()) {
					List<GrantCount> forks = grants.getOrDefault(measurement.library(), List.of());
					row.add(forks.isEmpty() ? "not counted"
							: Spread.of(forks.stream().map(GrantCount::combinedPerSecond).toList()).format());
					row.add(forks.isEmpty() ? "not counted"
							: Spread.of(forks.stream().map((fork) -> 100 * fork.benchmarkJvmShare()).toList())
								.format());
					row.add(forks.isEmpty() ? "not counted"
							: Spread.of(forks.stream().map(GrantCount::longestGapMillis).toList()).format());
				}
				row.add(ratio(measurement, base, Measurement::throughput));
				row.add(ratio(measurement, base, Measurement::p50Micros));
			}
			if (profiled) {
				row.add(measurement.cpuNanos().isEmpty() ? "not measured"
						: Spread.of(measurement.cpuNanos().stream().map((nanos) -> nanos / 1000).toList()).format());
				row.add(measurement.cpuNanos().isEmpty() ? "not measured"
						: ratio(measurement, base.filter((other) -> !other.cpuNanos().isEmpty()),
								Measurement::cpuNanos));
				row.add(measurement.allocatedBytes().isEmpty() ? "not measured"
						: Spread.of(measurement.allocatedBytes()).format());
			}
			row.add(load(measurement.load(), busyProcessors));
			table.row(row);
		}
		table.appendTo(out);
	}

	private static String ratio(Measurement measurement, Optional<Measurement> base,
			Function<Measurement, List<Double>> figure) {
		if (base.isEmpty()) {
			return "no baseline";
		}
		if (base.get() == measurement) {
			return "baseline";
		}
		return Ratio.of(figure.apply(measurement), figure.apply(base.get())).format();
	}

	static String load(Measurement.Load load, double busyProcessors) {
		String text = number(load.before().one()) + " → " + number(load.after().one()) + "; "
				+ number(load.otherProcessors());
		return load.isBusy(busyProcessors) ? text + " **busy**" : text;
	}

	private static String number(double value) {
		return Double.isNaN(value) ? "unknown" : String.format(Locale.ROOT, "%.2f", value);
	}

	/**
	 * Return the grants of a two-JVM workload summed per library and fork.
	 */
	static Map<String, List<GrantCount>> grantsPerFork(List<GrantCount> counts) {
		Map<String, Map<Long, GrantCount>> sums = new LinkedHashMap<>();
		for (GrantCount count : counts) {
			sums.computeIfAbsent(count.library(), (library) -> new LinkedHashMap<>())
				.merge(count.fork(), count, GrantCount::plus);
		}
		Map<String, List<GrantCount>> perFork = new LinkedHashMap<>();
		sums.forEach((library, forks) -> perFork.put(library, List.copyOf(forks.values())));
		return perFork;
	}

	/**
	 * Append the requests per lock cycle.
	 */
	static void requests(StringBuilder out, List<RequestsPerCycle.Count> counts) {
		double floor = counts.stream()
			.filter((count) -> count.subject().library() == Library.FLOOR)
			.mapToDouble(RequestsPerCycle.Count::requests)
			.findFirst()
			.orElse(Double.NaN);
		MarkdownTable table = new MarkdownTable(
				List.of("library", "use", "requests per cycle", "writes per cycle", "requests vs floor"));
		for (RequestsPerCycle.Count count : counts) {
			table.row(List.of(label(count.subject().library()), use(count.subject().kind()),
					Spread.number(count.requests()), Spread.number(count.writes()),
					Spread.number(count.requests() / floor) + "×"));
		}
		table.appendTo(out);
	}

	/**
	 * Append the leader failover times: their distribution, and where it lies against the
	 * session timeout. No ratio between libraries: what they differ by is mostly when the
	 * leader's last ping happened to be.
	 */
	static void failovers(StringBuilder out, List<LeaderFailover.Result> results) {
		MarkdownTable table = new MarkdownTable(List.of("library", "leader's JVM ends by", "failovers",
				"failover (ms), median (p25–p75)", "least – most (ms)", "÷ session timeout: least – median – most",
				"session timeout (ms)"));
		for (LeaderFailover.Result result : results) {
			Spread millis = Spread.of(result.millis());
			double timeout = result.sessionTimeoutMillis();
			table.row(List.of(label(result.election()), shutdown(result.shutdown()),
					Integer.toString(result.millis().size()), millis.formatQuartiles(),
					Spread.number(millis.min()) + " – " + Spread.number(millis.max()),
					String.format(Locale.ROOT, "%.2f – %.2f – %.2f", millis.min() / timeout,
							millis.median() / timeout, millis.max() / timeout),
					Integer.toString(result.sessionTimeoutMillis())));
		}
		table.appendTo(out);
	}

	static String label(Subject.Described library) {
		return library.isZkLock() ? "**" + library.label() + "**" : library.label();
	}

	private static String use(RequestsPerCycle.Kind kind) {
		return switch (kind) {
			case EXCLUSIVE -> "exclusive, the same key every cycle";
			case FIRST_USE -> "exclusive, a key never used before every cycle";
			case SHARED -> "shared";
			case SKIP_IF_FREE -> "skip if locked; lock free";
			case SKIP_IF_HELD -> "skip if locked; lock held elsewhere";
		};
	}

	private static String shutdown(LeaderFailover.Shutdown shutdown) {
		return switch (shutdown) {
			case GRACEFUL -> "graceful shutdown (SIGTERM)";
			case KILL -> "kill -9 (SIGKILL), at a random point of its ping cycle";
		};
	}

}
