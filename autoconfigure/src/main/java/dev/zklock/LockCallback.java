package dev.zklock;

/**
 * Work done while a lock is held.
 *
 * @param <T> the result type
 * @param <E> the exception the work may throw; it reaches the caller unchanged
 * @since 0.1.0
 * @see ZkLockTemplate
 */
@FunctionalInterface
public interface LockCallback<T, E extends Throwable> {

	/**
	 * Do the work.
	 * @param lock the lock held for it
	 * @return the result
	 * @throws E the work's own exception
	 */
	T doWithLock(HeldLock lock) throws E;

}
