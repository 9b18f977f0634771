package dev.zklock.lock;

import java.util.OptionalLong;

import dev.zklock.HeldLock;

/**
 * The fencing token of a grant as far as it is known without asking ZooKeeper, for code that
 * reports on a call (traces, the endpoint) and must not make it pay a write. Internal: used by
 * the metrics and observations support.
 */
public final class FencingTokens {

	private FencingTokens() {
	}

	/**
	 * Return the grant's token if it is known now: always for the first grant of a lock node,
	 * and for a handed-off grant once the call has asked for it.
	 * @param lock the grant
	 * @return the token, or empty
	 */
	public static OptionalLong known(HeldLock lock) {
		try {
			long token = (lock instanceof Hold hold) ? hold.knownToken() : lock.fencingToken();
			return (token != 0) ? OptionalLong.of(token) : OptionalLong.empty();
		}
		catch (IllegalStateException ex) {
			// No token can be given (a zxid beyond what a token holds, or a released lock).
			return OptionalLong.empty();
		}
	}

}
