package dev.zklock;

import java.util.Optional;

import dev.zklock.lock.ThreadHolds;

/**
 * The locks held by the current thread, for code running inside a {@code @ZkLocked} method or a
 * {@link ZkLockTemplate} callback.
 *
 * <pre class="code">
 * HeldLock lock = ZkLockContext.current();
 * jdbc.update("update stock set qty = ?, fence = ? where sku = ? and fence &lt;= ?",
 *         qty, lock.fencingToken(), sku, lock.fencingToken());
 * </pre>
 *
 * @since 0.1.0
 */
public final class ZkLockContext {

	private ZkLockContext() {
	}

	/**
	 * Return the innermost lock the current thread holds.
	 * @return the lock
	 * @throws IllegalStateException if the thread holds no lock
	 */
	public static HeldLock current() {
		HeldLock lock = ThreadHolds.current();
		if (lock == null) {
			throw new IllegalStateException("The current thread holds no zklock lock: ZkLockContext.current() works "
					+ "inside a @ZkLocked method or a ZkLockTemplate callback, on the thread that runs it");
		}
		return lock;
	}

	/**
	 * Find the lock on the given key, if the current thread holds it (for example in an outer
	 * call).
	 * @param key the key
	 * @return the lock, or empty
	 */
	public static Optional<HeldLock> find(String key) {
		return Optional.ofNullable(ThreadHolds.get(key));
	}

}
