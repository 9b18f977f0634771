package dev.zklock.sample.stock;

import dev.zklock.HeldLock;
import dev.zklock.ZkLockContext;
import org.jspecify.annotations.Nullable;

/**
 * The lock a piece of code saw in {@link ZkLockContext}, and the thread it ran on.
 *
 * @param key the lock's key
 * @param fencingToken the lock's fencing token
 * @param thread the name of the thread that saw it
 */
public record LockSeen(String key, long fencingToken, String thread) {

	static LockSeen of(HeldLock lock) {
		return new LockSeen(lock.key(), lock.fencingToken(), Thread.currentThread().getName());
	}

	/**
	 * Return the lock on the key that the running code sees, or {@code null} if it sees none.
	 */
	static @Nullable LockSeen find(String key) {
		return ZkLockContext.find(key).map(LockSeen::of).orElse(null);
	}

}
