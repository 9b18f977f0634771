package dev.zklock.systemtest.check;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import dev.zklock.systemtest.history.Operation;

/**
 * The clock operations are compared on: the monotonic one ({@link System#nanoTime()}, one clock
 * for every process of a Linux machine, finer than a millisecond, never stepped) when every
 * operation recorded it, else the wall clock in milliseconds.
 *
 * @param monotonic whether the monotonic clock is used
 */
record Timeline(boolean monotonic) {

	/**
	 * Return the finest clock that every given operation recorded.
	 * @param operations the operations to compare
	 * @return the timeline
	 */
	static Timeline of(List<Operation> operations) {
		return new Timeline(!operations.isEmpty()
				&& operations.stream().allMatch((operation) -> operation.startNanos() != null));
	}

	long start(Operation operation) {
		return this.monotonic ? Objects.requireNonNull(operation.startNanos()) : operation.start();
	}

	long end(Operation operation) {
		return this.monotonic ? Objects.requireNonNull(operation.endNanos()) : operation.end();
	}

	/**
	 * Return a duration on this timeline in milliseconds, as text.
	 */
	String millis(long duration) {
		return this.monotonic ? String.format(Locale.ROOT, "%.3f", duration / 1_000_000.0) : Long.toString(duration);
	}

}
