package dev.zklock;

import java.time.Duration;

/**
 * Thrown when a lock could not be obtained within its wait time.
 *
 * @since 0.1.0
 */
public class LockTimeoutException extends ZkLockException {

	private final String key;

	private final Duration waitTime;

	public LockTimeoutException(String key, Duration waitTime) {
		super("Could not obtain the lock on key '" + key + "' within " + waitTime.toMillis() + "ms");
		this.key = key;
		this.waitTime = waitTime;
	}

	/**
	 * Return the key of the lock that was not obtained.
	 * @return the lock key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Return how long the caller waited.
	 * @return the wait time
	 */
	public Duration getWaitTime() {
		return this.waitTime;
	}

}
