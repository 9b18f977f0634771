package dev.zklock;

import org.jspecify.annotations.Nullable;

/**
 * Base class of the exceptions zklock throws to its callers. Messages name the lock key or the
 * leadership group concerned.
 *
 * @since 0.1.0
 */
public class ZkLockException extends RuntimeException {

	public ZkLockException(String message) {
		super(message);
	}

	public ZkLockException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
