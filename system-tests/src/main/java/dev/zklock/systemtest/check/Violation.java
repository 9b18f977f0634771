package dev.zklock.systemtest.check;

import java.util.List;
import java.util.stream.Collectors;

import dev.zklock.systemtest.history.Operation;

/**
 * One breach of an invariant, with the operations that show it.
 *
 * @param invariant the invariant broken
 * @param message what happened
 * @param operations the operations involved, if any
 */
public record Violation(Invariant invariant, String message, List<Operation> operations) {

	/**
	 * Create a new instance.
	 */
	public Violation {
		operations = List.copyOf(operations);
	}

	@Override
	public String toString() {
		return "[" + this.invariant + "] " + this.message + this.operations.stream()
			.map((operation) -> "\n      " + operation)
			.collect(Collectors.joining());
	}

}
