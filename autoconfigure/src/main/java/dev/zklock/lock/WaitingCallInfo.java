package dev.zklock.lock;

import java.time.Instant;

import dev.zklock.LockMode;

/**
 * A call waiting for a lock in this process, as operations tools show it.
 *
 * @param key the key
 * @param mode the mode
 * @param thread the waiting thread's name
 * @param since when it started waiting
 */
public record WaitingCallInfo(String key, LockMode mode, String thread, Instant since) {

	static WaitingCallInfo of(Waiter waiter) {
		return new WaitingCallInfo(waiter.key(), waiter.mode(), waiter.thread().getName(), waiter.since());
	}

}
