package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.Operation;
import org.jspecify.annotations.Nullable;

/**
 * Checks {@link Invariant#EXCLUSION}: two intervals overlap when each starts before the other
 * ends ({@code a.start < b.end && b.start < a.end}), on the {@link Timeline} the operations
 * recorded: the monotonic clock in nanoseconds when all did, else the wall clock, on which
 * intervals that only touch, within the same millisecond, do not overlap, so overlaps shorter
 * than a millisecond can be missed.
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
		List<Operation> ok = operations.stream().filter(Operation::isOk).toList();
		Timeline time = Timeline.of(ok);
		ok = ok.stream().sorted(Comparator.comparingLong(time::start).thenComparing(History.ORDER)).toList();
		List<Violation> violations = new ArrayList<>();
		// Sweep by start, keeping the exclusive and the shared operation that ends last so far:
		// an operation overlapping any earlier one overlaps at least that one.
		Operation lastExclusive = null;
		Operation lastShared = null;
		for (Operation operation : ok) {
			if (overlaps(time, lastExclusive, operation)) {
				violations.add(violation(time, lastExclusive, operation));
			}
			else if (operation.kind().isExclusive() && overlaps(time, lastShared, operation)) {
				violations.add(violation(time, lastShared, operation));
			}
			if (operation.kind().isExclusive()) {
				lastExclusive = endsLater(time, lastExclusive, operation);
			}
			else {
				lastShared = endsLater(time, lastShared, operation);
			}
		}
		return violations;
	}

	private static boolean overlaps(Timeline time, @Nullable Operation earlier, Operation later) {
		return earlier != null && time.start(later) < time.end(earlier);
	}

	private static Operation endsLater(Timeline time, @Nullable Operation current, Operation candidate) {
		return (current == null || time.end(candidate) > time.end(current)) ? candidate : current;
	}

	private static Violation violation(Timeline time, Operation earlier, Operation later) {
		long overlap = Math.min(time.end(earlier), time.end(later)) - time.start(later);
		return new Violation(Invariant.EXCLUSION, "'" + later.key() + "' held by " + earlier.process() + " and "
				+ later.process() + " at once for " + time.millis(overlap) + " ms", List.of(earlier, later));
	}

}
