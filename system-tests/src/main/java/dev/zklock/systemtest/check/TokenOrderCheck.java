package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import dev.zklock.systemtest.history.Operation;
import org.jspecify.annotations.Nullable;

/**
 * Checks {@link Invariant#TOKEN_ORDER} on the ok operations of one lock key: an exclusive one
 * must have a higher token than every ok operation that ended before it started, a shared one a
 * higher token than every ok exclusive one that ended before it started. Both intervals lie
 * inside their grants, so the earlier grant came first in real time. A library that hands the
 * same token to two grants, or takes a grant's token from before an earlier grant, breaks it even
 * where the register's fence lets it pass ({@code >=}). Compared on the operations'
 * {@link Timeline}.
 */
final class TokenOrderCheck {

	private TokenOrderCheck() {
	}

	/**
	 * Check the operations of one lock key.
	 * @param operations the locked operations of one key
	 * @return the violations
	 */
	static List<Violation> check(List<Operation> operations) {
		List<Operation> ok = operations.stream()
			.filter((operation) -> operation.isOk() && operation.token() != null)
			.toList();
		Timeline time = Timeline.of(ok);
		List<Operation> byStart = ok.stream().sorted(Comparator.comparingLong(time::start)).toList();
		List<Operation> byEnd = ok.stream().sorted(Comparator.comparingLong(time::end)).toList();
		List<Violation> violations = new ArrayList<>();
		// Sweep by start, with the highest token of the operations ended before: all, and exclusive only.
		Operation highestOfAll = null;
		Operation highestExclusive = null;
		int ended = 0;
		for (Operation operation : byStart) {
			while (ended < byEnd.size() && time.end(byEnd.get(ended)) < time.start(operation)) {
				Operation done = byEnd.get(ended++);
				highestOfAll = higher(highestOfAll, done);
				if (done.kind().isExclusive()) {
					highestExclusive = higher(highestExclusive, done);
				}
			}
			Operation earlier = operation.kind().isExclusive() ? highestOfAll : highestExclusive;
			if (earlier != null && token(earlier) >= token(operation)) {
				violations.add(new Violation(Invariant.TOKEN_ORDER, operation.process() + " was granted '"
						+ operation.key() + "' with token " + token(operation) + " after " + earlier.process()
						+ " had ended its grant with token " + token(earlier), List.of(earlier, operation)));
			}
		}
		return violations;
	}

	private static Operation higher(@Nullable Operation current, Operation candidate) {
		return (current == null || token(candidate) > token(current)) ? candidate : current;
	}

	private static long token(Operation operation) {
		return Objects.requireNonNull(operation.token());
	}

}
