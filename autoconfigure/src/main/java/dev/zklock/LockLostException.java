package dev.zklock;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a lock was lost, or could not be confirmed, while it was held: the ZooKeeper
 * session was lost or suspended, or the process paused for longer than the session could
 * survive. Work done under the lock may have overlapped with another holder's; use the lock's
 * fencing token to let the protected resource reject late writes.
 *
 * @since 0.1.0
 */
public class LockLostException extends ZkLockException {

	private final String key;

	public LockLostException(String key, String reason) {
		this(key, reason, null);
	}

	public LockLostException(String key, String reason, @Nullable Throwable cause) {
		super("Lock on key '" + key + "' was lost: " + reason, cause);
		this.key = key;
	}

	/**
	 * Return the key of the lost lock.
	 * @return the lock key
	 */
	public String getKey() {
		return this.key;
	}

}
