package dev.zklock.autoconfigure;

import dev.zklock.ZkLockException;

/**
 * Thrown at startup when the ZooKeeper connect string is malformed.
 *
 * @since 0.1.0
 */
public class InvalidConnectStringException extends ZkLockException {

	private final String connectString;

	public InvalidConnectStringException(String connectString, String problem) {
		super("Invalid ZooKeeper connect string '" + connectString + "': " + problem);
		this.connectString = connectString;
	}

	/**
	 * Return the connect string that was rejected.
	 * @return the connect string
	 */
	public String getConnectString() {
		return this.connectString;
	}

}
