package dev.zklock.systemtest.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.zklock.test.IsolatedNetwork;
import dev.zklock.systemtest.check.CheckReport;
import dev.zklock.systemtest.check.Failover;
import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.register.RegisterState;
import org.jspecify.annotations.Nullable;

/**
 * The figures of a fault-injection run: what ran for how long, the operations and their
 * outcomes, the faults injected by kind, the leader failovers with the fault that caused each,
 * and the invariant violations.
 *
 * @param name the run's name
 * @param commit the commit it ran on, as {@code git describe --always --dirty} names it
 * @param seed the seed of its random schedule, if it had one
 * @param durationMillis how long the workload ran, from the start of the processes to the check
 * @param report the checker's report
 * @param faults the faults injected
 * @param history the history the report was made of
 */
record RunSummary(String name, String commit, @Nullable Long seed, long durationMillis, CheckReport report,
		List<Fault> faults, History history) {

	/**
	 * How long before a leader's last tick a fault on it may begin and still be its cause: a
	 * partitioned leader ticks until its connection is suspended.
	 */
	private static final long CAUSE_MARGIN_MILLIS = 250;

	/**
	 * Return the leader failovers, each with the fault that caused it, if any.
	 */
	List<CausedFailover> failovers() {
		return this.report.failovers().stream().map((failover) -> new CausedFailover(failover, cause(failover))).toList();
	}

	/**
	 * Return, for each failover in which the old leader ticked again after the new leader's
	 * first tick, those ticks of the old leader.
	 */
	List<StaleTicks> staleTicks() {
		List<StaleTicks> stale = new ArrayList<>();
		for (Failover failover : this.report.failovers()) {
			if (failover.gapMillis() >= 0) {
				continue;
			}
			List<Operation> ticks = this.history.operations()
				.stream()
				.filter((operation) -> operation.kind() == OpKind.LEADER_TICK && operation.isOk()
						&& operation.process().equals(failover.fromProcess())
						&& Objects.equals(operation.token(), failover.fromEpoch())
						&& operation.start() >= failover.firstTickStart())
				.toList();
			if (!ticks.isEmpty()) {
				stale.add(new StaleTicks(failover, ticks));
			}
		}
		return stale;
	}

	/**
	 * Return the number of faults of each kind.
	 */
	Map<Nemesis, Long> faultCounts() {
		Map<Nemesis, Long> counts = new EnumMap<>(Nemesis.class);
		this.faults.forEach((fault) -> counts.merge(fault.nemesis(), 1L, Long::sum));
		return counts;
	}

	/**
	 * Write the summary to a file.
	 */
	void writeTo(Path file) {
		try {
			Files.writeString(file, toString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not write " + file, ex);
		}
	}

	@Override
	public String toString() {
		StringBuilder text = new StringBuilder();
		text.append("Run '").append(this.name).append("'")
			.append((this.seed != null) ? ", seed " + this.seed : "")
			.append(", workload ran for ").append(minutesAndSeconds(this.durationMillis))
			.append(" (").append(this.durationMillis).append(" ms)\n");
		text.append("Commit: ").append(this.commit).append('\n');
		text.append("Setup: 3 ZooKeeper servers (tickTime ").append(Cluster.TICK_TIME_MILLIS)
			.append(" ms), 3 application processes, session timeout ").append(Cluster.SESSION_TIMEOUT.toMillis())
			.append(" ms; ")
			.append(IsolatedNetwork.unavailableReason()
				.map((reason) -> "servers on loopback, no partitions inside the ensemble (" + reason + ")")
				.orElse("servers in network namespaces of their own, partitions inside the ensemble possible"))
			.append('\n');
		text.append("Faults injected: ").append(this.faults.size()).append(" (")
			.append(faultCounts().entrySet()
				.stream()
				.map((entry) -> entry.getKey().label() + "=" + entry.getValue())
				.collect(Collectors.joining(", ")))
			.append(")\n");
		text.append("Invariant violations: ").append(this.report.violations().size())
			.append(this.report.violations().isEmpty() ? "" : " (" + this.report.violations()
				.stream()
				.collect(Collectors.groupingBy((violation) -> violation.invariant().name(), TreeMap::new,
						Collectors.counting()))
				.entrySet()
				.stream()
				.map((entry) -> entry.getKey() + "=" + entry.getValue())
				.collect(Collectors.joining(", ")) + ")")
			.append('\n');
		text.append("Lost updates of the unfenced registers (what the lock alone let through): ")
			.append(this.report.registers()
				.stream()
				.filter(RegisterState::isUnfenced)
				.map((register) -> register.name() + "=" + register.lostUpdates() + " of " + register.acceptedWrites()
						+ " writes")
				.collect(Collectors.joining(", ")))
			.append('\n');
		text.append("Leader failovers, from the fault to the new leader's first tick, by cause:\n");
		table(text, failovers().stream()
			.collect(Collectors.groupingBy(CausedFailover::causeLabel, TreeMap::new,
					Collectors.mapping(CausedFailover::sinceFaultMillis, Collectors.toList()))));
		text.append("Lock stalls on 'counter', the longest time without an ok operation on it from the fault's start to "
				+ LockStalls.AFTER_HEAL_MILLIS + " ms after it was healed, by fault:\n");
		table(text, LockStalls.byFault(this.history, "counter", this.faults));
		List<StaleTicks> stale = staleTicks();
		text.append("Failovers in which the old leader still ticked after the new leader's first tick (each a "
				+ "STALE_TICK violation): ")
			.append(stale.size());
		if (!stale.isEmpty()) {
			text.append(", ").append(stale.stream().mapToInt(StaleTicks::count).sum())
				.append(" such ticks, the longest run of them ")
				.append(stale.stream().mapToLong(StaleTicks::spanMillis).max().getAsLong())
				.append(" ms");
		}
		text.append('\n');
		stale.forEach((ticks) -> text.append("  ").append(ticks).append('\n'));
		text.append("Faults:\n");
		this.faults.forEach((fault) -> text.append("  ").append(fault).append('\n'));
		text.append("Failovers:\n");
		failovers().forEach((failover) -> text.append("  ").append(failover).append('\n'));
		text.append(this.report);
		return text.toString();
	}

	private static void table(StringBuilder text, Map<String, List<Long>> byCause) {
		if (byCause.isEmpty()) {
			text.append("  none\n");
		}
		byCause.forEach((cause, times) -> {
			List<Long> sorted = times.stream().filter((time) -> time >= 0).sorted().toList();
			text.append("  ").append(cause).append(": n=").append(times.size());
			if (!sorted.isEmpty()) {
				text.append(", min=").append(sorted.get(0)).append(" median=").append(sorted.get(sorted.size() / 2))
					.append(" max=").append(sorted.get(sorted.size() - 1)).append(" ms");
			}
			text.append('\n');
		});
	}

	private @Nullable Fault cause(Failover failover) {
		long from = failover.lastTickEnd() - CAUSE_MARGIN_MILLIS;
		long to = failover.firstTickStart();
		Comparator<Fault> latest = Comparator.comparingLong(Fault::start);
		Fault onLeader = this.faults.stream()
			.filter((fault) -> fault.nemesis().targetsApp() && fault.target().equals(failover.fromProcess()))
			.filter((fault) -> fault.start() <= to && fault.end() >= from)
			.max(latest)
			.orElse(null);
		if (onLeader != null) {
			return onLeader;
		}
		return this.faults.stream()
			.filter((fault) -> !fault.nemesis().targetsApp())
			.filter((fault) -> fault.start() <= to && fault.end() >= from)
			.max(latest)
			.orElse(null);
	}

	private static String minutesAndSeconds(long millis) {
		long seconds = millis / 1000;
		return (seconds / 60) + " min " + (seconds % 60) + " s";
	}

}
