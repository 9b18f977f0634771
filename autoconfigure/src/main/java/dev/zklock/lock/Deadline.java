package dev.zklock.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * When an acquisition gives up, on the monotonic clock.
 */
final class Deadline {

	/**
	 * Time a single ZooKeeper request may take even when the caller does not want to wait for
	 * the lock at all.
	 */
	static final long MIN_REQUEST_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private final LongSupplier clock;

	private final long start;

	private final long end;

	private final boolean forever;

	private final Duration waitTime;

	private Deadline(Duration waitTime, LongSupplier clock) {
		this.clock = clock;
		this.start = clock.getAsLong();
		this.waitTime = waitTime;
		this.forever = waitTime.isNegative();
		this.end = this.forever ? Long.MAX_VALUE : this.start + saturatedNanos(waitTime);
	}

	/**
	 * Return the deadline of a wait on the given clock (the port's: the simulator's, in tests).
	 */
	static Deadline after(Duration waitTime, LongSupplier clock) {
		return new Deadline(waitTime, clock);
	}

	/**
	 * Return whether the caller wants the lock only if it is free now.
	 */
	boolean isNoWait() {
		return this.waitTime.isZero();
	}

	boolean isForever() {
		return this.forever;
	}

	Duration waitTime() {
		return this.waitTime;
	}

	/**
	 * Return the time left to wait for the lock, zero when it has passed.
	 */
	long remainingNanos() {
		return this.forever ? Long.MAX_VALUE : Math.max(0, this.end - this.clock.getAsLong());
	}

	boolean hasPassed() {
		return !this.forever && this.end - this.clock.getAsLong() <= 0;
	}

	/**
	 * Return the time left for a ZooKeeper request: the time left to wait, but at least
	 * {@link #MIN_REQUEST_NANOS} from the start, so that a call that does not wait still gets
	 * one answer.
	 */
	long requestNanos() {
		if (this.forever) {
			return Long.MAX_VALUE;
		}
		long now = this.clock.getAsLong();
		long requestEnd = Math.max(this.end, this.start + MIN_REQUEST_NANOS);
		return Math.max(0, requestEnd - now);
	}

	/**
	 * Return the time a lock request may still wait for its answer: the time left to wait once
	 * the call is known to wait for another holder, and the time a ZooKeeper request may take
	 * while it only waits for ZooKeeper's answer ({@link #requestNanos()}); zero when it is over.
	 * @param waitsForOthers whether the call is known to wait for another holder
	 */
	long answerNanos(boolean waitsForOthers) {
		return waitsForOthers ? remainingNanos() : requestNanos();
	}

	/**
	 * Wait for a lock request's answer: until the wait time has passed once the call is known to
	 * wait for another holder, and until the time a ZooKeeper request may take while it only
	 * waits for ZooKeeper's answer (so that a short wait time on a free lock is not spent on a
	 * slow round trip).
	 * @param port where the calling thread waits
	 * @param answer the request's answer
	 * @param deadline the call's deadline
	 * @param waitsForOthers whether the call is known to wait for another holder
	 * @return the answer
	 * @throws TimeoutException if the time ran out
	 */
	static <T> T await(ZooKeeperPort port, CompletableFuture<T> answer, Deadline deadline,
			BooleanSupplier waitsForOthers) throws InterruptedException, TimeoutException, ExecutionException {
		if (deadline.isForever()) {
			return port.await(answer, Long.MAX_VALUE);
		}
		while (true) {
			long nanos = deadline.answerNanos(waitsForOthers.getAsBoolean());
			if (nanos <= 0) {
				throw new TimeoutException();
			}
			try {
				return port.await(answer, Math.min(nanos, POLL_NANOS));
			}
			catch (TimeoutException ex) {
				// Look again: the call may have learned meanwhile that it waits for another holder.
			}
		}
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE / 2;
		}
	}

}
