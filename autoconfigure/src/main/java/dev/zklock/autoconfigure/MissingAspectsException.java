package dev.zklock.autoconfigure;

import dev.zklock.ZkLockException;

/**
 * Thrown at startup when {@code zklock.advice-mode=aspectj} but the zklock-aspects module, whose
 * woven aspects are then the only way into the advice, is not on the class path.
 *
 * @since 0.1.0
 */
public class MissingAspectsException extends ZkLockException {

	/**
	 * Create an exception.
	 */
	public MissingAspectsException() {
		super("zklock.advice-mode is aspectj, but the zklock-aspects module is not on the class path, so no "
				+ "@ZkLocked or @ZkLeader method would be advised");
	}

}
