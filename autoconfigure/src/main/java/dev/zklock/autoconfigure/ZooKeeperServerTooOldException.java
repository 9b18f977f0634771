package dev.zklock.autoconfigure;

import org.jspecify.annotations.Nullable;

import dev.zklock.ZkLockException;

/**
 * Thrown at startup when {@code zklock.fail-fast} is on and the ZooKeeper server lacks what
 * zklock's locks and elections are built on: container nodes, created in a {@code multi}
 * transaction (ZooKeeper 3.4 has neither).
 *
 * @since 0.1.0
 */
public class ZooKeeperServerTooOldException extends ZkLockException {

	/**
	 * The oldest ZooKeeper server line zklock is tested against and supports.
	 */
	public static final String OLDEST_SUPPORTED = "3.6";

	private final String connectString;

	private final @Nullable String serverVersion;

	public ZooKeeperServerTooOldException(String connectString, @Nullable String serverVersion, String lacking) {
		super("ZooKeeper at '" + connectString + "' is "
				+ ((serverVersion != null) ? "version " + serverVersion : "of a version that did not answer 'srvr'")
				+ ", which " + lacking + "; zklock needs ZooKeeper " + OLDEST_SUPPORTED + " or later");
		this.connectString = connectString;
		this.serverVersion = serverVersion;
	}

	/**
	 * Return the connect string of the server.
	 * @return the connect string
	 */
	public String getConnectString() {
		return this.connectString;
	}

	/**
	 * Return the version the server reported (its {@code srvr} four-letter word), or
	 * {@code null} if it did not answer.
	 * @return the server's version
	 */
	public @Nullable String getServerVersion() {
		return this.serverVersion;
	}

}
