package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;
import dev.zklock.systemtest.register.RegisterState;

/**
 * Verifies the {@link Invariant invariants} of a system test run on its merged history and its
 * registers' final states. The histories of all processes must come from one machine, so that
 * their wall-clock times compare. A register is matched to the lock key of the same name.
 */
public final class Checker {

	private Checker() {
	}

	/**
	 * Check a run.
	 * @param history the merged history of every process
	 * @param registers the final states of the registers the locked operations used
	 * @return the report, with every violation found
	 */
	public static CheckReport check(History history, Collection<RegisterState> registers) {
		return check(history, registers, -1);
	}

	/**
	 * Check a run whose workload has stopped, every operation logged: the registers' accepted
	 * writes must also be explained by the history.
	 * @param history the merged history of every process
	 * @param registers the final states of the registers the locked operations used
	 * @param inDoubtPerKill how many increments a kill of a process may cut short before they are
	 * logged: the number of its threads that increment
	 * @return the report, with every violation found
	 */
	public static CheckReport checkStopped(History history, Collection<RegisterState> registers, int inDoubtPerKill) {
		return check(history, registers, Math.max(0, inDoubtPerKill));
	}

	private static CheckReport check(History history, Collection<RegisterState> registers, int inDoubtPerKill) {
		List<Operation> operations = history.operations();
		List<Operation> connections = operations.stream()
			.filter((operation) -> operation.kind() == OpKind.CONNECTION)
			.toList();
		List<Violation> violations = new ArrayList<>();
		List<Failover> failovers = new ArrayList<>();
		byKey(operations, (operation) -> operation.kind().isLocked()).values().forEach((locked) -> {
			violations.addAll(ExclusionCheck.check(locked));
			violations.addAll(TakeoverCheck.check(locked));
			violations.addAll(TokenOrderCheck.check(locked));
		});
		violations.addAll(FailureCheck.check(operations));
		violations.addAll(RegisterCheck.check(registers, operations, inDoubtPerKill));
		byKey(operations, (operation) -> operation.kind().isLeadership()).values().forEach((group) -> {
			LeaderCheck leaders = new LeaderCheck(group, connections);
			violations.addAll(leaders.check());
			failovers.addAll(leaders.failovers());
		});
		byKey(operations, (operation) -> operation.kind() == OpKind.COMPONENT_RUN).values()
			.forEach((group) -> violations.addAll(ComponentCheck.check(group)));
		failovers.sort((one, other) -> Long.compare(one.firstTickStart(), other.firstTickStart()));
		return new CheckReport(operations.size(), counts(operations), List.copyOf(registers), failovers, violations,
				history.damagedLines());
	}

	private static Map<String, List<Operation>> byKey(List<Operation> operations, Predicate<Operation> filter) {
		return operations.stream()
			.filter(filter)
			.collect(Collectors.groupingBy(Operation::key, TreeMap::new, Collectors.toList()));
	}

	private static Map<OpKind, Map<Outcome, Long>> counts(List<Operation> operations) {
		Map<OpKind, Map<Outcome, Long>> counts = new EnumMap<>(OpKind.class);
		for (Operation operation : operations) {
			counts.computeIfAbsent(operation.kind(), (kind) -> new EnumMap<>(Outcome.class))
				.merge(operation.outcome(), 1L, Long::sum);
		}
		return counts;
	}

}
