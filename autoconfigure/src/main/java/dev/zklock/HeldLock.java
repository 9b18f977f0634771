package dev.zklock;

/**
 * A lock held by the current thread, as seen from inside the locked call.
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
	 * Return the fencing token of this grant: the creation zxid of this holder's lock node in
	 * ZooKeeper. It grows strictly across successive exclusive holders of the key, so a
	 * protected resource that remembers the highest token it has seen can reject a late write
	 * from a holder that lost the lock.
	 * @return the fencing token
	 */
	long fencingToken();

	/**
	 * Return whether the lock is certainly still held: the session that holds it has not been
	 * suspended or lost, and, after a process pause that the session might not have survived,
	 * the server has confirmed the lock.
	 * @return whether the lock is valid
	 */
	boolean isValid();

	/**
	 * Throw unless {@link #isValid()}.
	 * @throws LockLostException if the lock is lost or in doubt
	 */
	void ensureValid();

}
