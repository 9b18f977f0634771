package dev.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.zklock.benchmarks.library.Election;
import dev.zklock.benchmarks.library.Library;
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
	static void jmh(StringBuilder out, JmhWorkload workload, List<Measurement> all) {
		List<Measurement> measurements = workload.select(all);
		if (measurements.isEmpty()) {
			return;
		}
		out.append("#### ").append(workload.number()).append(". ").append(workload.title()).append("\n\n");
		out.append(workload.note()).append("\n\n");
		Set<String> params = new LinkedHashSet<>();
		measurements.forEach((measurement) -> params.addAll(measurement.params().keySet()));
		String baseline = workload.label(workload.baseline()).replace("**", "");
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
			header.addAll(List.of("throughput vs " + baseline, "p50 vs " + baseline));
		}
		MarkdownTable table = new MarkdownTable(header);
		for (Measurement measurement : measurements) {
			List<String> row = new ArrayList<>(
					List.of(workload.label(measurement.library()), Integer.toString(measurement.threads())));
			params.forEach((name) -> row.add(measurement.params().getOrDefault(name, "")));
			Optional<Measurement> base = baseline(measurement, workload.baseline(), measurements);
			if (workload.measuresCalls()) {
				row.add(Spread.of(measurement.averageNanos()).format());
				row.add(base.map((b) -> ratio(measurement.averageNanos(), b.averageNanos())).orElse("no baseline"));
			}
			else {
				row.add(Spread.of(measurement.throughput()).format());
				row.add(Spread.of(measurement.p50Micros()).format());
				row.add(Spread.of(measurement.p99Micros()).format());
				if (workload.showsHandoffs()) {
					row.add(Spread.of(measurement.throughput().stream().map((rate) -> 1e6 / rate).toList()).format());
				}
				row.add(base.map((b) -> ratio(measurement.throughput(), b.throughput())).orElse("no baseline"));
				row.add(base.map((b) -> ratio(measurement.p50Micros(), b.p50Micros())).orElse("no baseline"));
			}
			table.row(row);
		}
		table.appendTo(out);
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
	 * Append the leader failover times.
	 */
	static void failovers(StringBuilder out, List<LeaderFailover.Result> results) {
		MarkdownTable table = new MarkdownTable(List.of("library", "leader's JVM ends by", "failover (ms)",
				"failovers", "session timeout (ms)", "vs " + Election.CURATOR.label()));
		for (LeaderFailover.Result result : results) {
			String ratio = results.stream()
				.filter((base) -> base.election() == Election.CURATOR && base.shutdown() == result.shutdown())
				.findFirst()
				.map((base) -> ratio(result.millis(), base.millis()))
				.orElse("no baseline");
			String label = result.election().isZkLock() ? "**" + result.election().label() + "**"
					: result.election().label();
			table.row(List.of(label, shutdown(result.shutdown()), Spread.of(result.millis()).format(),
					Integer.toString(result.millis().size()), Integer.toString(result.sessionTimeoutMillis()), ratio));
		}
		table.appendTo(out);
	}

	static Optional<Measurement> baseline(Measurement measurement, String baseline, List<Measurement> candidates) {
		return candidates.stream()
			.filter((candidate) -> candidate.library().equals(baseline) && candidate.sameCaseAs(measurement))
			.findFirst();
	}

	static double medianRatio(List<Double> values, List<Double> baseline) {
		return Spread.of(values).median() / Spread.of(baseline).median();
	}

	static String ratio(List<Double> values, List<Double> baseline) {
		return String.format(java.util.Locale.ROOT, "%.2f×", medianRatio(values, baseline));
	}

	static String label(Library library) {
		return library.isZkLock() ? "**" + library.label() + "**" : library.label();
	}

	private static String use(RequestsPerCycle.Kind kind) {
		return switch (kind) {
			case EXCLUSIVE -> "exclusive";
			case SHARED -> "shared";
			case SKIP_IF_FREE -> "skip if locked; lock free";
			case SKIP_IF_HELD -> "skip if locked; lock held elsewhere";
		};
	}

	private static String shutdown(LeaderFailover.Shutdown shutdown) {
		return switch (shutdown) {
			case GRACEFUL -> "graceful shutdown (SIGTERM)";
			case KILL -> "kill -9 (SIGKILL)";
		};
	}

}
