package dev.zklock.autoconfigure;

import java.time.Duration;

import dev.zklock.ZkLockException;

/**
 * Thrown at startup when {@code zklock.fail-fast} is on and no connection to ZooKeeper could be
 * made within the connection timeout.
 *
 * @since 0.1.0
 */
public class ZooKeeperUnavailableException extends ZkLockException {

	private final String connectString;

	private final Duration timeout;

	public ZooKeeperUnavailableException(String connectString, Duration timeout) {
		super("Could not connect to ZooKeeper at '" + connectString + "' within " + timeout.toMillis() + "ms");
		this.connectString = connectString;
		this.timeout = timeout;
	}

	/**
	 * Return the connect string that was tried.
	 * @return the connect string
	 */
	public String getConnectString() {
		return this.connectString;
	}

	/**
	 * Return how long the connection was waited for.
	 * @return the connection timeout
	 */
	public Duration getTimeout() {
		return this.timeout;
	}

}
