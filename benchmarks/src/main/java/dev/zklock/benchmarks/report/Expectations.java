package dev.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.zklock.benchmarks.library.Library;

/**
 * The expectations of the benchmark issue, reported against the figures of the run, never
 * asserted.
 */
final class Expectations {

	private Expectations() {
	}

	static void append(StringBuilder out, List<SetupReport> setups) {
		out.append("## Expectations\n\n");
		out.append("Reported, not asserted: they are goals to judge zklock by, and a short or busy run can miss "
				+ "them either way.\n\n");
		out.append("1. **`@ZkLocked` within 5% of raw `InterProcessMutex` on workload 1.** Not measured yet: "
				+ "`@ZkLocked` is not in this build. For reference, `ZkLockTemplate` (which `@ZkLocked` calls):\n");
		for (SetupReport setup : setups) {
			out.append("   - ").append(setup.setup().label()).append(": ").append(templateVersusCurator(setup)).append('\n');
		}
		out.append("2. **No workload where zklock is slower than Spring Integration's registry** (median throughput):\n");
		for (SetupReport setup : setups) {
			out.append("   - ").append(setup.setup().label()).append(": ").append(versusSpringIntegration(setup))
				.append('\n');
		}
		out.append("3. **The `@ZkLeader` check on a non-leader costs under a microsecond.** Not measured yet: "
				+ "`@ZkLeader` is not in this build (workload 6).\n\n");
	}

	private static String templateVersusCurator(SetupReport setup) {
		List<Measurement> uncontended = JmhWorkload.UNCONTENDED.select(setup.measurements());
		Optional<Measurement> zklock = uncontended.stream().filter((m) -> m.library() == Library.ZKLOCK).findFirst();
		if (zklock.isEmpty()) {
			return "workload 1 did not run";
		}
		Optional<Measurement> curator = ResultTables.baseline(zklock.get(), Library.CURATOR, uncontended);
		if (curator.isEmpty()) {
			return "no Curator baseline";
		}
		double throughput = ResultTables.medianRatio(zklock.get().throughput(), curator.get().throughput());
		double p50 = ResultTables.medianRatio(zklock.get().p50Micros(), curator.get().p50Micros());
		boolean within = Math.abs(throughput - 1) <= 0.05;
		return String.format(Locale.ROOT, "throughput %.2f×, p50 %.2f× Curator: %s", throughput, p50,
				within ? "within 5%" : (throughput > 1 ? "more than 5% faster" : "more than 5% slower"));
	}

	private static String versusSpringIntegration(SetupReport setup) {
		List<String> slower = new ArrayList<>();
		int compared = 0;
		for (Measurement zklock : setup.measurements()) {
			if (zklock.library() != Library.ZKLOCK) {
				continue;
			}
			Optional<Measurement> other = ResultTables.baseline(zklock, Library.SPRING_INTEGRATION, setup.measurements());
			if (other.isEmpty()) {
				continue;
			}
			compared++;
			double ratio = ResultTables.medianRatio(zklock.throughput(), other.get().throughput());
			if (ratio < 1) {
				slower.add(String.format(Locale.ROOT, "%s.%s %.2f×", simpleName(zklock.benchmark()), zklock.method(),
						ratio));
			}
		}
		if (compared == 0) {
			return "no case ran with both";
		}
		return slower.isEmpty() ? "zklock is not slower in any of the " + compared + " cases that both ran"
				: "zklock is slower in " + slower.size() + " of " + compared + " cases: " + String.join(", ", slower);
	}

	private static String simpleName(String className) {
		return className.substring(className.lastIndexOf('.') + 1);
	}

}
