package dev.zklock.benchmarks.report;

import java.util.List;
import java.util.Optional;

import dev.zklock.benchmarks.ZooKeeperSetup;

/**
 * The report's comparison of TLS with plaintext: every benchmark case measured on both the
 * {@code standalone-tls} and the {@code standalone-netty} setups of one run (the same server
 * configuration; only the port the clients use differs), with the TLS figure as a ratio of the
 * plaintext one.
 */
final class TransportComparison {

	private TransportComparison() {
	}

	/**
	 * Append the comparison, or nothing when the run did not have both setups.
	 * @param out the report
	 * @param setups the run's setups
	 * @param busyProcessors how many processors other processes may use before a benchmark counts as busy
	 */
	static void append(StringBuilder out, List<SetupReport> setups, double busyProcessors) {
		Optional<SetupReport> tls = find(setups, ZooKeeperSetup.STANDALONE_TLS);
		Optional<SetupReport> plaintext = find(setups, ZooKeeperSetup.STANDALONE_NETTY);
		if (tls.isEmpty() || plaintext.isEmpty()) {
			return;
		}
		out.append("## TLS against plaintext\n\n");
		out.append("The same standalone server configuration twice in this run (Netty, a plaintext and a TLS port, "
				+ "the same certificate), the clients of one on its plaintext port, of the other on its TLS port; "
				+ "each row is one benchmark case on both. The ratio is TLS over plaintext, with the interval "
				+ "across forks (\"no difference\" where the forks overlap).\n\n");
		MarkdownTable table = new MarkdownTable(List.of("benchmark", "library", "threads", "plaintext (ops/s)",
				"TLS (ops/s)", "throughput, TLS vs plaintext", "p50 (µs), plaintext → TLS", "p50, TLS vs plaintext",
				"load (plaintext | TLS)"));
		for (Measurement measured : tls.get().measurements()) {
			Optional<Measurement> base = plaintext.get()
				.measurements()
				.stream()
				.filter((candidate) -> candidate.sameCaseAs(measured) && candidate.library().equals(measured.library()))
				.findFirst();
			if (base.isEmpty() || measured.throughput().isEmpty()) {
				continue;
			}
			Measurement plain = base.get();
			String benchmark = measured.benchmark().substring(measured.benchmark().lastIndexOf('.') + 1);
			table.row(List.of(benchmark + "." + measured.method(), measured.library(),
					Integer.toString(measured.threads()), Spread.of(plain.throughput()).format(),
					Spread.of(measured.throughput()).format(),
					Ratio.of(measured.throughput(), plain.throughput()).format(),
					Spread.of(plain.p50Micros()).format() + " → " + Spread.of(measured.p50Micros()).format(),
					Ratio.of(measured.p50Micros(), plain.p50Micros()).format(),
					ResultTables.load(plain.load(), busyProcessors) + " | " + ResultTables.load(measured.load(), busyProcessors)));
		}
		table.appendTo(out);
		out.append('\n');
	}

	private static Optional<SetupReport> find(List<SetupReport> setups, ZooKeeperSetup setup) {
		return setups.stream().filter((report) -> report.setup() == setup).findFirst();
	}

}
