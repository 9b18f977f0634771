package dev.zklock.systemtest.history;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;

/**
 * One line of a history: an operation of an application process, or a leadership event.
 * <p>
 * Times are wall-clock milliseconds ({@link System#currentTimeMillis()}), comparable across the
 * processes of one machine, unlike {@link System#nanoTime()}. For an operation that obtained its
 * lock, {@code start} is taken right after the lock was granted (first thing in the locked
 * code) and {@code end} right before it is released (last thing in the locked code), so the
 * interval lies inside the time the process believed it held the lock; the outcome is what the
 * caller saw afterwards. For an operation that never obtained its lock ({@code timeout}), the
 * interval is the wait and there is no token. A leadership event has {@code start == end}.
 *
 * @param process the application process, stable across restarts
 * @param kind what the operation was
 * @param key the lock key, or the leader group
 * @param start when it started, in epoch milliseconds
 * @param end when it ended, in epoch milliseconds
 * @param token the fencing token of the lock, or the leader's epoch; {@code null} when none was
 * obtained
 * @param outcome how it ended
 * @param value the register value written or read, if any
 * @param detail free text: an error message, the fault a nemesis injected
 * @param startNanos {@link System#nanoTime()} at the start, if recorded: on Linux one monotonic
 * clock for every process of the machine, finer than a millisecond and never stepped
 * @param endNanos {@link System#nanoTime()} at the end, if recorded
 * @param calledNanos {@link System#nanoTime()} when the call asked for its lock, if recorded: the
 * start of its wait, before {@code startNanos}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({ "process", "kind", "key", "start", "end", "token", "outcome", "value", "detail", "startNanos",
		"endNanos", "calledNanos" })
public record Operation(String process, OpKind kind, String key, long start, long end, @Nullable Long token,
		Outcome outcome, @Nullable Long value, @Nullable String detail, @Nullable Long startNanos,
		@Nullable Long endNanos, @Nullable Long calledNanos) {

	/**
	 * Create a new instance, checking that it does not end before it starts.
	 */
	public Operation {
		if (end < start) {
			throw new IllegalArgumentException("Operation ends at " + end + " before it starts at " + start);
		}
		if ((startNanos == null) != (endNanos == null) || (startNanos != null && endNanos < startNanos)) {
			throw new IllegalArgumentException("Operation has monotonic times " + startNanos + ".." + endNanos);
		}
		if (calledNanos != null && startNanos != null && startNanos < calledNanos) {
			throw new IllegalArgumentException(
					"Operation starts at " + startNanos + " before its call at " + calledNanos);
		}
	}

	/**
	 * Create a new instance without monotonic times.
	 * @param process the application process
	 * @param kind what the operation was
	 * @param key the lock key, or the leader group
	 * @param start when it started
	 * @param end when it ended
	 * @param token the fencing token or epoch
	 * @param outcome how it ended
	 * @param value the register value
	 * @param detail free text
	 */
	public Operation(String process, OpKind kind, String key, long start, long end, @Nullable Long token,
			Outcome outcome, @Nullable Long value, @Nullable String detail) {
		this(process, kind, key, start, end, token, outcome, value, detail, null, null, null);
	}

	/**
	 * Create an operation run under a lock, or a leader tick.
	 * @param process the application process
	 * @param kind what the operation was
	 * @param key the lock key, or the leader group
	 * @param start when it started
	 * @param end when it ended
	 * @param token the fencing token or epoch, {@code null} when none was obtained
	 * @param outcome how it ended
	 * @return the operation
	 */
	public static Operation of(String process, OpKind kind, String key, long start, long end, @Nullable Long token,
			Outcome outcome) {
		return new Operation(process, kind, key, start, end, token, outcome, null, null);
	}

	/**
	 * Create a leadership event ({@link OpKind#LEADER_GRANTED} or {@link OpKind#LEADER_REVOKED}).
	 * @param process the application process
	 * @param kind the event
	 * @param group the leader group
	 * @param time when the process learnt of it
	 * @param epoch the term's epoch
	 * @return the event
	 */
	public static Operation event(String process, OpKind kind, String group, long time, long epoch) {
		return new Operation(process, kind, group, time, time, epoch, Outcome.OK, null, null);
	}

	/**
	 * Create a change of a process's connection to ZooKeeper ({@link OpKind#CONNECTION}).
	 * @param process the application process
	 * @param time when the process learnt of it
	 * @param state the new state, such as {@code SUSPENDED}
	 * @return the event
	 */
	public static Operation connection(String process, long time, String state) {
		return new Operation(process, OpKind.CONNECTION, "zookeeper", time, time, null, Outcome.OK, null, state);
	}

	/**
	 * Return a copy with the register value written or read.
	 * @param value the value
	 * @return the copy
	 */
	public Operation withValue(long value) {
		return new Operation(this.process, this.kind, this.key, this.start, this.end, this.token, this.outcome, value,
				this.detail, this.startNanos, this.endNanos, this.calledNanos);
	}

	/**
	 * Return a copy with a detail.
	 * @param detail an error message, or the fault injected
	 * @return the copy
	 */
	public Operation withDetail(String detail) {
		return new Operation(this.process, this.kind, this.key, this.start, this.end, this.token, this.outcome,
				this.value, detail, this.startNanos, this.endNanos, this.calledNanos);
	}

	/**
	 * Return a copy with monotonic times.
	 * @param startNanos {@link System#nanoTime()} at the start
	 * @param endNanos {@link System#nanoTime()} at the end
	 * @return the copy
	 */
	public Operation withNanos(long startNanos, long endNanos) {
		return new Operation(this.process, this.kind, this.key, this.start, this.end, this.token, this.outcome,
				this.value, this.detail, startNanos, endNanos, this.calledNanos);
	}

	/**
	 * Return a copy with the monotonic time at which the call asked for its lock.
	 * @param calledNanos {@link System#nanoTime()} before the lock was asked for
	 * @return the copy
	 */
	public Operation withCalledNanos(long calledNanos) {
		return new Operation(this.process, this.kind, this.key, this.start, this.end, this.token, this.outcome,
				this.value, this.detail, this.startNanos, this.endNanos, calledNanos);
	}

	/**
	 * Return whether it ended {@code ok}.
	 * @return whether its process saw it complete as the holder
	 */
	@JsonIgnore
	public boolean isOk() {
		return this.outcome == Outcome.OK;
	}

	/**
	 * Return whether this operation's lock excludes another's: both locked, on the same key, at
	 * least one of them exclusive.
	 * @param other the other operation
	 * @return whether their locks exclude each other
	 */
	public boolean conflictsWith(Operation other) {
		return this.kind.isLocked() && other.kind.isLocked() && this.key.equals(other.key)
				&& (this.kind.isExclusive() || other.kind.isExclusive());
	}

	@Override
	public String toString() {
		return this.process + " " + this.kind.label() + " " + this.key + " [" + this.start + ".." + this.end + "]"
				+ ((this.token != null) ? " token=" + this.token : "") + " " + this.outcome.label()
				+ ((this.value != null) ? " value=" + this.value : "")
				+ ((this.detail != null) ? " (" + this.detail + ")" : "");
	}

}
