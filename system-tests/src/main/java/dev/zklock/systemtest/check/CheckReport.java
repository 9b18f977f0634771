package dev.zklock.systemtest.check;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Outcome;
import dev.zklock.systemtest.register.RegisterState;
import org.jspecify.annotations.Nullable;

/**
 * What the {@link Checker} found in a run: operation counts, register counts, failover times and
 * every invariant violation. {@link #toString()} gives it as text for a test log or a report.
 *
 * @param operations the number of operations and events read
 * @param counts the number of operations of each kind by outcome
 * @param registers the registers' final states
 * @param failovers the leader changes, in time order
 * @param violations the invariant violations; none in a correct run
 * @param damagedLines the history lines that could not be read
 */
public record CheckReport(int operations, Map<OpKind, Map<Outcome, Long>> counts, List<RegisterState> registers,
		List<Failover> failovers, List<Violation> violations, List<String> damagedLines) {

	private static final int LISTED = 50;

	/**
	 * Create a new instance.
	 */
	public CheckReport {
		counts = Collections.unmodifiableMap(counts);
		registers = List.copyOf(registers);
		failovers = List.copyOf(failovers);
		violations = List.copyOf(violations);
		damagedLines = List.copyOf(damagedLines);
	}

	/**
	 * Return whether any invariant was violated.
	 * @return whether there is a violation
	 */
	public boolean hasViolations() {
		return !this.violations.isEmpty();
	}

	/**
	 * Return the violations of one invariant.
	 * @param invariant the invariant
	 * @return its violations
	 */
	public List<Violation> violationsOf(Invariant invariant) {
		return this.violations.stream().filter((violation) -> violation.invariant() == invariant).toList();
	}

	/**
	 * Return the number of operations of a kind with an outcome.
	 * @param kind the kind
	 * @param outcome the outcome
	 * @return the count
	 */
	public long count(OpKind kind, Outcome outcome) {
		return this.counts.getOrDefault(kind, Map.of()).getOrDefault(outcome, 0L);
	}

	@Override
	public String toString() {
		StringBuilder text = new StringBuilder();
		text.append("Operations: ").append(this.operations).append(" (damaged lines: ")
			.append(this.damagedLines.size()).append(")\n");
		this.counts.forEach((kind, outcomes) -> text.append("  ").append(kind.label()).append(": ")
			.append(outcomes.entrySet().stream().map((entry) -> entry.getKey().label() + "=" + entry.getValue())
				.collect(Collectors.joining(" ")))
			.append('\n'));
		list(text, this.damagedLines, "Damaged lines");
		text.append("Registers:\n");
		this.registers.forEach((register) -> text.append("  ").append(register.name()).append(": value=")
			.append(register.value()).append(" accepted writes=").append(register.acceptedWrites())
			.append(" rejected=").append(register.rejected()).append('\n'));
		text.append("Failovers: ").append(this.failovers.size());
		if (!this.failovers.isEmpty()) {
			List<Long> gaps = this.failovers.stream().map(Failover::gapMillis).sorted().toList();
			text.append(" (ms: min=").append(gaps.get(0)).append(" median=").append(gaps.get(gaps.size() / 2))
				.append(" max=").append(gaps.get(gaps.size() - 1)).append(")");
		}
		text.append('\n');
		list(text, this.failovers, null);
		text.append("Violations: ").append(this.violations.isEmpty() ? "none" : this.violations.size()).append('\n');
		list(text, this.violations, null);
		return text.toString();
	}

	private static void list(StringBuilder text, List<?> items, @Nullable String title) {
		if (items.isEmpty()) {
			return;
		}
		if (title != null) {
			text.append(title).append(":\n");
		}
		items.stream().limit(LISTED).forEach((item) -> text.append("  ").append(item).append('\n'));
		if (items.size() > LISTED) {
			text.append("  ... and ").append(items.size() - LISTED).append(" more\n");
		}
	}

}
