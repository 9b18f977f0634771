package dev.zklock.systemtest.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;

/**
 * Checks {@link Invariant#UNEXPLAINED_FAILURE} and {@link Invariant#ERROR_IN_CRITICAL_SECTION}:
 * outcomes other than ok are not free passes. An operation that obtained its lock and ended
 * {@code fenced} or {@code lock-lost} must have, within {@link #WINDOW} of its interval, a fault
 * injected into its process (a nemesis operation whose key is the process) or a change of its
 * process's connection to ZooKeeper; an operation that ended in {@code error} must not have
 * obtained its lock.
 */
final class FailureCheck {

	/**
	 * How far from an operation its explanation may be: more than the processes' session timeout,
	 * since a partitioned client learns of it only when its reads time out, and its lock goes
	 * when the server expires its session.
	 */
	static final Duration WINDOW = Duration.ofSeconds(5);

	private FailureCheck() {
	}

	static List<Violation> check(List<Operation> operations) {
		Map<String, List<Operation>> explanations = operations.stream()
			.filter((operation) -> operation.kind() == OpKind.CONNECTION || operation.kind() == OpKind.NEMESIS)
			.collect(Collectors.groupingBy((operation) -> (operation.kind() == OpKind.NEMESIS) ? operation.key()
					: operation.process()));
		List<Violation> violations = new ArrayList<>();
		for (Operation operation : operations) {
			if (!operation.kind().isLocked() || operation.token() == null) {
				continue;
			}
			if (operation.outcome() == Outcome.ERROR) {
				violations.add(new Violation(Invariant.ERROR_IN_CRITICAL_SECTION, operation.process() + " failed on '"
						+ operation.key() + "' after its lock was granted", List.of(operation)));
			}
			else if (operation.outcome() == Outcome.FENCED || operation.outcome() == Outcome.LOCK_LOST) {
				if (!explained(operation, explanations.getOrDefault(operation.process(), List.of()))) {
					violations.add(new Violation(Invariant.UNEXPLAINED_FAILURE, operation.process() + " ended "
							+ operation.outcome().label() + " on '" + operation.key() + "' with no fault on it and no "
							+ "change of its connection within " + WINDOW.toMillis() + " ms", List.of(operation)));
				}
			}
		}
		return violations;
	}

	private static boolean explained(Operation operation, List<Operation> explanations) {
		long from = operation.start() - WINDOW.toMillis();
		long to = operation.end() + WINDOW.toMillis();
		return explanations.stream().anyMatch((explanation) -> explanation.start() <= to && explanation.end() >= from);
	}

}
