package dev.zklock.systemtest.app;

import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;
import org.jspecify.annotations.Nullable;

/**
 * What the locked part of one operation saw: when it began and ended, under which fencing
 * token, and the register value. Filled in by the locked method and turned into an
 * {@link Operation} by its caller once the outcome is known. Used by one thread.
 */
final class Attempt {

	private final long called = System.currentTimeMillis();

	private final long calledNanos = System.nanoTime();

	private long start;

	private long end;

	private long startNanos;

	private long endNanos;

	private @Nullable Long token;

	private @Nullable Long value;

	/**
	 * Record that the lock was granted: first thing in the locked code.
	 */
	void begin(long fencingToken) {
		this.startNanos = System.nanoTime();
		this.start = System.currentTimeMillis();
		this.token = fencingToken;
	}

	/**
	 * Record the register value written or read.
	 */
	void value(long value) {
		this.value = value;
	}

	/**
	 * Record the end of the locked code: last thing in it.
	 */
	void finish() {
		this.end = System.currentTimeMillis();
		this.endNanos = System.nanoTime();
	}

	/**
	 * Return the operation: the locked interval and token, and when the call asked for the lock,
	 * if the lock was granted, else the whole call without a token.
	 */
	Operation toOperation(String process, OpKind kind, String key, Outcome outcome, @Nullable String detail) {
		long returned = System.currentTimeMillis();
		Operation operation = (this.token != null)
				? Operation.of(process, kind, key, this.start, Math.max(this.start, this.end), this.token, outcome)
					.withNanos(this.startNanos, Math.max(this.startNanos, this.endNanos))
					.withCalledNanos(Math.min(this.calledNanos, this.startNanos))
				: Operation.of(process, kind, key, this.called, returned, null, outcome);
		if (this.value != null) {
			operation = operation.withValue(this.value);
		}
		return (detail != null) ? operation.withDetail(detail) : operation;
	}

}
