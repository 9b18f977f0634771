package dev.zklock.systemtest.register;

/**
 * Thrown when a register rejects an access because its fencing token is older than the fence:
 * a later holder of the lock has used the register already.
 */
public class FenceRejectedException extends RuntimeException {

	private final String register;

	private final long token;

	private final long fence;

	/**
	 * Create a new instance.
	 * @param register the register's name
	 * @param token the rejected token
	 * @param fence the fence it was below
	 */
	public FenceRejectedException(String register, long token, long fence) {
		super("Register '" + register + "' rejected token " + token + " below fence " + fence);
		this.register = register;
		this.token = token;
		this.fence = fence;
	}

	/**
	 * Return the register's name.
	 * @return the name
	 */
	public String getRegister() {
		return this.register;
	}

	/**
	 * Return the rejected token.
	 * @return the token
	 */
	public long getToken() {
		return this.token;
	}

	/**
	 * Return the fence the token was below.
	 * @return the fence
	 */
	public long getFence() {
		return this.fence;
	}

}
