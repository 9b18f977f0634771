package dev.zklock.shedlock;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockLostException;
import dev.zklock.ReleasableLock;

/**
 * One job's hold of its lock, from the grant to the release: HELD while the job runs (until its
 * unlock, or until {@code lockAtMostFor} has passed), then KEPT after an unlock that came before
 * {@code lockAtLeastFor} had passed (until it has), then ENDED, the lock released. Every change
 * happens under the grant's monitor; the release itself outside it.
 */
final class ShedLockGrant {

	private enum State {

		HELD, KEPT, ENDED

	}

	private final ReleasableLock lock;

	private final ScheduledExecutorService timer;

	private final Consumer<ShedLockGrant> onEnd;

	private State state = State.HELD;

	private Instant lockAtMostUntil;

	private Instant lockAtLeastUntil;

	private @Nullable ScheduledFuture<?> due;

	ShedLockGrant(ReleasableLock lock, LockConfiguration configuration, ScheduledExecutorService timer,
			Consumer<ShedLockGrant> onEnd) {
		this.lock = lock;
		this.timer = timer;
		this.onEnd = onEnd;
		this.lockAtMostUntil = configuration.getLockAtMostUntil();
		this.lockAtLeastUntil = configuration.getLockAtLeastUntil();
	}

	/**
	 * Start the timer that ends the lock when {@code lockAtMostFor} has passed.
	 */
	synchronized void start() {
		schedule();
	}

	/**
	 * The job's unlock: the lock is released now, or kept until {@code lockAtLeastFor} has passed.
	 * Does nothing to a lock that {@code lockAtMostFor} ended.
	 */
	void unlock() {
		synchronized (this) {
			if (this.state != State.HELD) {
				return;
			}
			if (ClockProvider.now().isBefore(this.lockAtLeastUntil)) {
				this.state = State.KEPT;
				schedule();
				return;
			}
		}
		end();
	}

	/**
	 * Move the lock's times, if it is still held and its {@code lockAtMostFor} has not passed; a
	 * lock whose time has passed is released.
	 * @return whether the times were moved
	 */
	boolean extend(LockConfiguration configuration) {
		synchronized (this) {
			if (this.state != State.HELD) {
				return false;
			}
			if (ClockProvider.now().isBefore(this.lockAtMostUntil)) {
				this.lockAtMostUntil = configuration.getLockAtMostUntil();
				this.lockAtLeastUntil = configuration.getLockAtLeastUntil();
				schedule();
				return true;
			}
		}
		end();
		return false;
	}

	/**
	 * End the lock if its time has passed: {@code lockAtMostFor} while the job holds it,
	 * {@code lockAtLeastFor} while it is kept.
	 * @return whether the lock has ended
	 */
	boolean endIfDue() {
		synchronized (this) {
			if (this.state != State.ENDED && ClockProvider.now().isBefore(until())) {
				return false;
			}
		}
		end();
		return true;
	}

	/**
	 * Release the lock now, and wait until it is released.
	 */
	void end() {
		synchronized (this) {
			if (this.state == State.ENDED) {
				return;
			}
			this.state = State.ENDED;
			if (this.due != null) {
				this.due.cancel(false);
			}
		}
		this.onEnd.accept(this);
		try {
			this.lock.release().join();
		}
		catch (CompletionException ex) {
			// A lock lost with its session was logged and told to the lost-lock listener then.
			if (!(ex.getCause() instanceof LockLostException)) {
				throw ex;
			}
		}
	}

	private Instant until() {
		return (this.state == State.HELD) ? this.lockAtMostUntil : this.lockAtLeastUntil;
	}

	/**
	 * Schedule the end of the current state; the timer's clock and ShedLock's may differ a little,
	 * so a timer that fires early schedules again.
	 */
	private void schedule() {
		if (this.due != null) {
			this.due.cancel(false);
		}
		long delay = Math.max(0, Duration.between(ClockProvider.now(), until()).toNanos());
		try {
			this.due = this.timer.schedule(this::fire, delay, TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// The provider is closed, and its close ends every lock.
			this.due = null;
		}
	}

	private void fire() {
		if (!endIfDue()) {
			synchronized (this) {
				if (this.state != State.ENDED) {
					schedule();
				}
			}
		}
	}

}
