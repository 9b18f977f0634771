package dev.zklock;

import java.util.concurrent.CompletionStage;

/**
 * Asynchronous work done while holding a lock: it starts the work and returns at once; the lock is
 * held until the returned stage completes.
 *
 * @param <T> the type of the work's result
 * @since 0.1.0
 * @see ZkLockTemplate#executeAsync(java.util.Collection, LockMode, java.time.Duration, AsyncLockCallback)
 */
@FunctionalInterface
public interface AsyncLockCallback<T> {

	/**
	 * Start the work.
	 * @param lock the lock held for the work (for several keys, the innermost); valid until the
	 * returned stage completes
	 * @return the work's completion; {@code null} counts as work already done with a
	 * {@code null} result
	 * @throws Throwable anything, which ends the call with it, the lock released
	 */
	CompletionStage<T> doWithLock(HeldLock lock) throws Throwable;

}
