package dev.zklock;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.zklock.support.CallContext;

/**
 * The locks held by the calls the current code runs in, for code inside a {@code @ZkLocked}
 * method or a {@link ZkLockTemplate} callback: a blocking call's, and the synchronous part of an
 * asynchronous or reactive call's body. Later stages of an asynchronous call's work see its locks
 * where the context is propagated ({@link ZkLockThreadLocalAccessor}); a call that has released
 * its locks is never seen.
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
	 * Return the innermost lock of the calls the current code runs in.
	 * @return the lock
	 * @throws IllegalStateException if the code runs in no locked call
	 */
	public static HeldLock current() {
		CallContext context = CallContext.current();
		HeldLock lock = (context != null) ? context.lock() : null;
		if (lock == null) {
			throw new IllegalStateException("The current thread holds no zklock lock: ZkLockContext.current() works "
					+ "inside a @ZkLocked method or a ZkLockTemplate callback, on the thread that runs it, and in "
					+ "later stages of its work where the context is propagated, until the call releases its lock");
		}
		return lock;
	}

	/**
	 * Find the lock on the given key, if the calls the current code runs in hold it (for example
	 * an outer call).
	 * @param key the key
	 * @return the lock, or empty
	 */
	public static Optional<HeldLock> find(String key) {
		CallContext context = CallContext.current();
		@Nullable HeldLock lock = (context != null) ? context.lock(key) : null;
		return Optional.ofNullable(lock);
	}

}
