package dev.zklock.sample.stock;

import dev.zklock.HeldLock;

/**
 * The lock a piece of code saw in {@link dev.zklock.ZkLockContext}, and the thread it ran on.
 *
 * @param key the lock's key
 * @param fencingToken the lock's fencing token
 * @param thread the name of the thread that saw it
 */
public record LockSeen(String key, long fencingToken, String thread) {

	static LockSeen of(HeldLock lock) {
		return new LockSeen(lock.key(), lock.fencingToken(), Thread.currentThread().getName());
	}

}
