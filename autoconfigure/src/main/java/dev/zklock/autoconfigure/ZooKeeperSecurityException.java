package dev.zklock.autoconfigure;

import org.jspecify.annotations.Nullable;

import dev.zklock.ZkLockException;

/**
 * Thrown at startup when the security set-up of the ZooKeeper client (TLS, ACLs,
 * authentication) cannot work: it says what is wrong and which property to change.
 *
 * @since 0.1.0
 */
public class ZooKeeperSecurityException extends ZkLockException {

	private final String action;

	/**
	 * Create an exception.
	 * @param description what is wrong
	 * @param action what to do about it, naming the property to fix
	 * @param cause the underlying failure, if any
	 */
	public ZooKeeperSecurityException(String description, String action, @Nullable Throwable cause) {
		super(description, cause);
		this.action = action;
	}

	/**
	 * Return what to do about the failure.
	 * @return the action, naming the property to fix
	 */
	public String getAction() {
		return this.action;
	}

}
