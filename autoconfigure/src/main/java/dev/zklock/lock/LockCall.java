package dev.zklock.lock;

import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;

/**
 * Follows one call of a {@link dev.zklock.ZkLockTemplate} for a {@link LockCallListener}: the
 * wait for its locks, then the work done while holding them. Either {@link #acquired} then
 * {@link #ended}, or {@link #notAcquired} alone, is called; they must be quick and must not
 * throw. A blocking call makes them all on its thread; an asynchronous call makes
 * {@link #acquired} and {@link #detached} on the thread that starts its work, and
 * {@link #ended} on the thread that sees it end.
 *
 * @since 0.1.0
 */
public interface LockCall {

	/**
	 * A call that nobody follows.
	 */
	LockCall NONE = new LockCall() {
	};

	/**
	 * The call obtained every lock and is about to run.
	 * @param lock the innermost lock, the one the call sees as current
	 */
	default void acquired(HeldLock lock) {
	}

	/**
	 * An asynchronous call's work has been started and returned its future: the thread that
	 * started it goes on with other work, while the call runs on until {@link #ended}. Anything
	 * bound to that thread by {@link #acquired} must be unbound now. Never called for a blocking
	 * call.
	 */
	default void detached() {
	}

	/**
	 * The call did not obtain its locks and does not run.
	 * @param outcome {@link AcquisitionOutcome#TIMEOUT}, {@link AcquisitionOutcome#SKIPPED} or
	 * {@link AcquisitionOutcome#ERROR}
	 * @param error what the call throws, if it throws
	 */
	default void notAcquired(AcquisitionOutcome outcome, @Nullable Throwable error) {
	}

	/**
	 * The call ran and its locks have been released.
	 * @param error what the call throws, if it throws (its own exception, or a
	 * {@link dev.zklock.LockLostException})
	 */
	default void ended(@Nullable Throwable error) {
	}

}
