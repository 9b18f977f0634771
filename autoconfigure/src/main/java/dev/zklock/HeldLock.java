package dev.zklock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A lock held by a call, as seen from inside it: by the current thread for a blocking call, by
 * the work of an asynchronous or reactive call.
 *
 * @since 0.1.0
 * @see ZkLockContext
 */
public interface HeldLock {

	/**
	 * Return the key of the lock.
	 * @return the key
	 */
	String key();

	/**
	 * Return how the lock is held.
	 * @return the mode
	 */
	LockMode mode();

	/**
	 * Return the fencing token of this grant: a positive number greater than the token of every
	 * grant of the key that came before this one (for a shared grant: of every exclusive grant
	 * before it), by any instance. A protected resource that remembers the highest token it has
	 * seen can so reject a late write from a holder that lost the lock. Compare tokens with
	 * {@code <}; do not count them (they have gaps) or read a zxid into them: a token is made of
	 * a ZooKeeper zxid and a count of this instance's grants on its lock node
	 * ({@code zxid × 4096 + count}), and is larger than every token of the versions whose tokens
	 * were bare zxids.
	 * <p>
	 * Taking a token costs no request to ZooKeeper, except for one grant in 4,096 of a lock node
	 * passed on from call to call of this instance (local handoff, or the reuse of a kept lock),
	 * which may wait for one write when the write sent ahead for the node's next zxid has not
	 * been answered yet.
	 * <p>
	 * A token given during the call is given again, unchanged, after it; a token first asked for
	 * after the call released the lock is refused.
	 * @return the fencing token
	 * @throws LockLostException if the token is asked for the first time while the lock is in
	 * doubt or lost
	 * @throws IllegalStateException if it is asked for the first time after the call released
	 * the lock, or if the ensemble's epoch (leader elections over its life) has grown beyond
	 * 2<sup>19</sup>, where no token can be made
	 */
	long fencingToken();

	/**
	 * Return the fencing token of this grant, like {@link #fencingToken()}, without blocking the
	 * calling thread: for reactive pipelines and other code that must not wait for ZooKeeper.
	 * The stage completes with the token, or with the exceptions {@link #fencingToken()} throws.
	 * @return the fencing token, when known
	 * @since 0.1.0
	 */
	default CompletionStage<Long> fencingTokenAsync() {
		try {
			return CompletableFuture.completedFuture(fencingToken());
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Return whether the lock is certainly still held: the call has not released it, the session
	 * that holds it has not been suspended or lost, and, after a process pause that the session
	 * might not have survived, the server has confirmed the lock. A released lock is never valid
	 * again, whatever grant it was (outer, reentrant, handed on, reusing a kept lock,
	 * asynchronous).
	 * @return whether the lock is valid
	 */
	boolean isValid();

	/**
	 * Throw unless {@link #isValid()}.
	 * @throws LockLostException if the lock is lost or in doubt
	 */
	void ensureValid();

}
