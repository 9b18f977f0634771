package dev.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.zklock.benchmarks.library.Election;
import dev.zklock.benchmarks.library.Library;

/**
 * The expectations of the benchmark issue, reported against the figures of the run, never
 * asserted.
 */
final class Expectations {

	private static final double ONE_MICROSECOND_IN_NANOS = 1000;

	private Expectations() {
	}

	static void append(StringBuilder out, List<SetupReport> setups) {
		out.append("## Expectations\n\n");
		out.append("Reported, not asserted: they are goals to judge zklock by, and a short or busy run can miss "
				+ "them either way.\n\n");
		out.append("1. **`@ZkLocked` within 5% of raw `InterProcessMutex` on workload 1** (median throughput "
				+ "and p50):\n");
		for (SetupReport setup : setups) {
			out.append("   - ").append(setup.setup().label()).append(": ")
				.append(versusCurator(setup, Library.ZKLOCKED)).append("; `ZkLockTemplate`: ")
				.append(versusCurator(setup, Library.ZKLOCK)).append('\n');
		}
		out.append("2. **No workload where zklock is slower than Spring Integration's registry** (median "
				+ "throughput, `ZkLockTemplate` and `@ZkLocked`):\n");
		for (SetupReport setup : setups) {
			out.append("   - ").append(setup.setup().label()).append(": ").append(versusSpringIntegration(setup))
				.append('\n');
		}
		out.append("3. **The `@ZkLeader` check on a non-leader costs under a microsecond** (median time per call):\n");
		for (SetupReport setup : setups) {
			out.append("   - ").append(setup.setup().label()).append(": ").append(leaderCheck(setup)).append('\n');
		}
		out.append('\n');
	}

	private static String versusCurator(SetupReport setup, Library library) {
		List<Measurement> uncontended = JmhWorkload.UNCONTENDED.select(setup.measurements());
		Optional<Measurement> measured = uncontended.stream()
			.filter((m) -> m.library().equals(library.id()))
			.findFirst();
		Optional<Measurement> curator = measured
			.flatMap((m) -> ResultTables.baseline(m, Library.CURATOR.id(), uncontended));
		if (measured.isEmpty() || curator.isEmpty()) {
			return "not measured";
		}
		double throughput = ResultTables.medianRatio(measured.get().throughput(), curator.get().throughput());
		double p50 = ResultTables.medianRatio(measured.get().p50Micros(), curator.get().p50Micros());
		boolean within = Math.abs(throughput - 1) <= 0.05 && Math.abs(p50 - 1) <= 0.05;
		return String.format(Locale.ROOT, "throughput %.2f×, p50 %.2f× Curator, %s", throughput, p50,
				within ? "within 5%" : "not within 5%");
	}

	private static String versusSpringIntegration(SetupReport setup) {
		List<String> slower = new ArrayList<>();
		int compared = 0;
		for (Measurement zklock : setup.measurements()) {
			if (!zklock.library().equals(Library.ZKLOCK.id()) && !zklock.library().equals(Library.ZKLOCKED.id())) {
				continue;
			}
			Optional<Measurement> other = ResultTables.baseline(zklock, Library.SPRING_INTEGRATION.id(),
					setup.measurements());
			if (other.isEmpty()) {
				continue;
			}
			compared++;
			double ratio = ResultTables.medianRatio(zklock.throughput(), other.get().throughput());
			if (ratio < 1) {
				slower.add(String.format(Locale.ROOT, "%s %s.%s %.2f×", Library.of(zklock.library()).label(),
						simpleName(zklock.benchmark()), zklock.method(), ratio));
			}
		}
		if (compared == 0) {
			return "no case ran with both";
		}
		return slower.isEmpty() ? "zklock is not slower in any of the " + compared + " cases that both ran"
				: "zklock is slower in " + slower.size() + " of " + compared + " cases: " + String.join(", ", slower);
	}

	private static String leaderCheck(SetupReport setup) {
		return JmhWorkload.LEADER_CHECK.select(setup.measurements())
			.stream()
			.filter((m) -> m.library().equals(Election.ZKLEADER.id())
					&& m.params().equals(Map.of("role", "non-leader")))
			.findFirst()
			.map((m) -> {
				double nanos = Spread.of(m.averageNanos()).median();
				return Spread.number(nanos) + " ns, "
						+ ((nanos < ONE_MICROSECOND_IN_NANOS) ? "under a microsecond" : "not under a microsecond");
			})
			.orElse("not measured");
	}

	private static String simpleName(String className) {
		return className.substring(className.lastIndexOf('.') + 1);
	}

}
