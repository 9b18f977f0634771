package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import dev.zklock.systemtest.history.Operation;
import org.jspecify.annotations.Nullable;

/**
 * Checks {@link Invariant#SILENT_TAKEOVER}: an operation that obtained its lock (it has a token)
 * is superseded by a conflicting operation on the same key with a higher token whose start is
 * before its end, whatever that operation's own outcome; a superseded operation must not end ok.
 * Since both intervals lie inside the times their processes believed they held the lock, the
 * later grant came while the earlier holder still ran. This also catches a paused holder that
 * starts its work only after a later holder, and fencing tokens that do not grow with grants.
 * Compared on the operations' {@link Timeline}.
 */
final class TakeoverCheck {

	private TakeoverCheck() {
	}

	/**
	 * Check the operations of one lock key.
	 * @param operations the locked operations of one key
	 * @return the violations
	 */
	static List<Violation> check(List<Operation> operations) {
		List<Operation> withToken = operations.stream().filter((operation) -> operation.token() != null).toList();
		Timeline time = Timeline.of(withToken);
		Operation[] granted = withToken.stream().sorted(Comparator.comparingLong(time::start)).toArray(Operation[]::new);
		long[] starts = Arrays.stream(granted).mapToLong(time::start).toArray();
		// The operation with the highest token among the first i + 1 by start: all, and exclusive only.
		Operation[] highestOfAll = new Operation[granted.length];
		Operation[] highestExclusive = new Operation[granted.length];
		for (int i = 0; i < granted.length; i++) {
			highestOfAll[i] = higher((i > 0) ? highestOfAll[i - 1] : null, granted[i]);
			Operation exclusive = granted[i].kind().isExclusive() ? granted[i] : null;
			highestExclusive[i] = higher((i > 0) ? highestExclusive[i - 1] : null, exclusive);
		}
		List<Violation> violations = new ArrayList<>();
		for (Operation operation : granted) {
			if (!operation.isOk()) {
				continue;
			}
			int startedBeforeEnd = countBelow(starts, time.end(operation));
			if (startedBeforeEnd == 0) {
				continue;
			}
			Operation[] conflicting = operation.kind().isExclusive() ? highestOfAll : highestExclusive;
			Operation superseding = conflicting[startedBeforeEnd - 1];
			if (superseding != null && token(superseding) > token(operation)) {
				violations.add(new Violation(Invariant.SILENT_TAKEOVER,
						operation.process() + " ended ok on '" + operation.key() + "' with token " + token(operation)
								+ " although " + superseding.process() + " started with token " + token(superseding)
								+ " before it ended",
						List.of(operation, superseding)));
			}
		}
		return violations;
	}

	private static @Nullable Operation higher(@Nullable Operation current, @Nullable Operation candidate) {
		if (current == null) {
			return candidate;
		}
		return (candidate != null && token(candidate) > token(current)) ? candidate : current;
	}

	private static long token(Operation operation) {
		return Objects.requireNonNull(operation.token());
	}

	private static int countBelow(long[] sorted, long limit) {
		int index = Arrays.binarySearch(sorted, limit);
		if (index < 0) {
			return -index - 1;
		}
		while (index > 0 && sorted[index - 1] == limit) {
			index--;
		}
		return index;
	}

}
