package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.Operation;
import org.jspecify.annotations.Nullable;

/**
 * Checks {@link Invariant#COMPONENT_EXCLUSION}: the ok intervals in which processes ran the
 * leader-only component of one group never overlap across processes, on the {@link Timeline}
 * the intervals recorded.
 */
final class ComponentCheck {

	private ComponentCheck() {
	}

	/**
	 * Check the component intervals of one group.
	 * @param operations the {@code component-run} operations of one group
	 * @return the violations
	 */
	static List<Violation> check(List<Operation> operations) {
		List<Operation> ok = operations.stream().filter(Operation::isOk).toList();
		Timeline time = Timeline.of(ok);
		ok = ok.stream().sorted(Comparator.comparingLong(time::start).thenComparing(History.ORDER)).toList();
		List<Violation> violations = new ArrayList<>();
		// Sweep by start, keeping the interval of another process that ends last so far.
		Operation last = null;
		for (Operation operation : ok) {
			if (last != null && !last.process().equals(operation.process()) && time.start(operation) < time.end(last)) {
				long overlap = Math.min(time.end(last), time.end(operation)) - time.start(operation);
				violations.add(new Violation(Invariant.COMPONENT_EXCLUSION, "the component of '" + operation.key()
						+ "' ran in " + last.process() + " and " + operation.process() + " at once for "
						+ time.millis(overlap) + " ms", List.of(last, operation)));
			}
			last = endsLater(time, last, operation);
		}
		return violations;
	}

	private static Operation endsLater(Timeline time, @Nullable Operation current, Operation candidate) {
		return (current == null || time.end(candidate) > time.end(current)) ? candidate : current;
	}

}
