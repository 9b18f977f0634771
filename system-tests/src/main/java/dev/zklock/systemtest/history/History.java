package dev.zklock.systemtest.history;

import java.util.Comparator;
import java.util.List;

/**
 * The operations of every process of a run, ordered by start time, and the lines that could not
 * be read.
 *
 * @param operations the operations, by start, then end, then process
 * @param damagedLines where each unreadable line was ({@code file:line: reason}); a process
 * killed while writing leaves one
 */
public record History(List<Operation> operations, List<String> damagedLines) {

	/**
	 * The order of a history's operations.
	 */
	public static final Comparator<Operation> ORDER = Comparator.comparingLong(Operation::start)
		.thenComparingLong(Operation::end)
		.thenComparing(Operation::process);

	/**
	 * Create a history, sorting the operations.
	 */
	public History {
		operations = operations.stream().sorted(ORDER).toList();
		damagedLines = List.copyOf(damagedLines);
	}

	/**
	 * Create a history of the given operations, with no damaged lines.
	 * @param operations the operations, in any order
	 * @return the history
	 */
	public static History of(List<Operation> operations) {
		return new History(operations, List.of());
	}

}
