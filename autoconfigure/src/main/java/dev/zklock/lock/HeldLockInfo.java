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
 * @param fencingToken the fencing token, or 0 if the call has not taken it yet
 * @param state {@code VALID}, {@code IN_DOUBT} or {@code LOST}
 */
public record HeldLockInfo(String key, LockMode mode, String thread, Instant since, long fencingToken, String state) {

	static HeldLockInfo of(Hold hold) {
		ActiveLock lock = hold.lock();
		return new HeldLockInfo(lock.key(), hold.mode(), hold.holderName(), hold.since(), hold.knownToken(),
				lock.state().name());
	}

}
