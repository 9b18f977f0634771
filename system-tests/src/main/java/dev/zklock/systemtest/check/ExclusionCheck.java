package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.List;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.Operation;
import org.jspecify.annotations.Nullable;

/**
 * Checks {@link Invariant#EXCLUSION}: two intervals overlap when each starts before the other
 * ends ({@code a.start < b.end && b.start < a.end}); intervals that only touch, within the same
 * millisecond, do not, so overlaps shorter than the clock's millisecond can be missed.
 */
final class ExclusionCheck {

	private ExclusionCheck() {
	}

	/**
	 * Check the operations of one lock key.
	 * @param operations the locked operations of one key
	 * @return the violations
	 */
	static List<Violation> check(List<Operation> operations) {
		List<Operation> ok = operations.stream().filter(Operation::isOk).sorted(History.ORDER).toList();
		List<Violation> violations = new ArrayList<>();
		// Sweep by start, keeping the exclusive and the shared operation that ends last so far:
		// an operation overlapping any earlier one overlaps at least that one.
		Operation lastExclusive = null;
		Operation lastShared = null;
		for (Operation operation : ok) {
			if (overlaps(lastExclusive, operation)) {
				violations.add(violation(lastExclusive, operation));
			}
			else if (operation.kind().isExclusive() && overlaps(lastShared, operation)) {
				violations.add(violation(lastShared, operation));
			}
			if (operation.kind().isExclusive()) {
				lastExclusive = endsLater(lastExclusive, operation);
			}
			else {
				lastShared = endsLater(lastShared, operation);
			}
		}
		return violations;
	}

	private static boolean overlaps(@Nullable Operation earlier, Operation later) {
		return earlier != null && later.start() < earlier.end();
	}

	private static Operation endsLater(@Nullable Operation current, Operation candidate) {
		return (current == null || candidate.end() > current.end()) ? candidate : current;
	}

	private static Violation violation(Operation earlier, Operation later) {
		return new Violation(Invariant.EXCLUSION, "'" + later.key() + "' held by " + earlier.process() + " and "
				+ later.process() + " at once for " + (Math.min(earlier.end(), later.end()) - later.start()) + " ms",
				List.of(earlier, later));
	}

}
