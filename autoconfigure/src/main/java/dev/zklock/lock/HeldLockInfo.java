package dev.zklock.lock;

import java.time.Instant;

import dev.zklock.LockMode;

/**
 * A lock held by this process, as operations tools show it.
 *
 * @param key the key
 * @param mode the mode
 * @param thread the holding thread's name
 * @param since when it was acquired
 * @param fencingToken the fencing token
 * @param state {@code VALID}, {@code IN_DOUBT} or {@code LOST}
 */
public record HeldLockInfo(String key, LockMode mode, String thread, Instant since, long fencingToken, String state) {

	static HeldLockInfo of(ActiveLock lock) {
		return new HeldLockInfo(lock.key(), lock.mode(), lock.holder().getName(), lock.since(), lock.node().grantToken(),
				lock.state().name());
	}

}
