package dev.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
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
		out.append("3. **The `@ZkLeader` check on a non-leader costs under a microsecond** (median time per call through the proxy):\n");
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
			.flatMap((m) -> Baseline.library(Library.CURATOR).of(m, uncontended));
		if (measured.isEmpty() || curator.isEmpty()) {
			return "not measured";
		}
		Ratio throughput = Ratio.of(measured.get().throughput(), curator.get().throughput());
		Ratio p50 = Ratio.of(measured.get().p50Micros(), curator.get().p50Micros());
		String verdict;
		if (!throughput.hasInterval()) {
			verdict = "cannot tell from one fork";
		}
		else if (throughput.within(0.95, 1.05) && p50.within(0.95, 1.05)) {
			verdict = "within 5%";
		}
		else if (outside(throughput) || outside(p50)) {
			verdict = "not within 5%";
		}
		else {
			verdict = "cannot tell: an interval reaches past 5%";
		}
		return "throughput " + throughput.format() + ", p50 " + p50.format() + " Curator: " + verdict;
	}

	private static boolean outside(Ratio ratio) {
		return ratio.hasInterval() && (ratio.high() < 0.95 || ratio.low() > 1.05);
	}

	private static String versusSpringIntegration(SetupReport setup) {
		List<String> slower = new ArrayList<>();
		int compared = 0;
		int undecided = 0;
		for (Measurement zklock : setup.measurements()) {
			if (!zklock.library().equals(Library.ZKLOCK.id()) && !zklock.library().equals(Library.ZKLOCKED.id())) {
				continue;
			}
			Optional<Measurement> other = Baseline.library(Library.SPRING_INTEGRATION)
				.of(zklock, setup.measurements());
			if (other.isEmpty()) {
				continue;
			}
			compared++;
			Ratio ratio = Ratio.of(zklock.throughput(), other.get().throughput());
			if (!ratio.differs()) {
				undecided++;
			}
			else if (ratio.high() < 1) {
				slower.add(Library.of(zklock.library()).label() + " " + simpleName(zklock.benchmark()) + "."
						+ zklock.method() + " " + ratio.format());
			}
		}
		if (compared == 0) {
			return "no case ran with both";
		}
		String noDifference = (undecided > 0) ? " (" + undecided + " of them no difference the run can tell)" : "";
		return slower.isEmpty() ? "zklock is not slower in any of the " + compared + " cases that both ran" + noDifference
				: "zklock is slower in " + slower.size() + " of " + compared + " cases" + noDifference + ": "
						+ String.join(", ", slower);
	}

	private static String leaderCheck(SetupReport setup) {
		return JmhWorkload.LEADER_CHECK.select(setup.measurements())
			.stream()
			.filter((m) -> m.library().equals(Election.ZKLEADER.id())
					&& m.params().equals(Map.of("guard", "proxied", "role", "non-leader")))
			.findFirst()
			.map((m) -> {
				Spread nanos = Spread.of(m.averageNanos());
				return nanos.format() + " ns, " + ((nanos.max() < ONE_MICROSECOND_IN_NANOS)
						? "under a microsecond in every fork" : "not under a microsecond in every fork");
			})
			.orElse("not measured");
	}

	private static String simpleName(String className) {
		return className.substring(className.lastIndexOf('.') + 1);
	}

}
