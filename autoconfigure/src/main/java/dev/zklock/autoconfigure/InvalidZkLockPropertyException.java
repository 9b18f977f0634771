package dev.zklock.autoconfigure;

import dev.zklock.ZkLockException;

/**
 * Thrown at startup when a {@code zklock.*} property has a value that zklock cannot use.
 *
 * @since 0.2.0
 */
public class InvalidZkLockPropertyException extends ZkLockException {

	private final String property;

	private final String value;

	private final String problem;

	private final String action;

	/**
	 * Create a new instance.
	 * @param property the name of the property, such as {@code zklock.session-timeout}
	 * @param value the value as the user would write it
	 * @param problem why the value cannot be used
	 * @param action what to do instead
	 */
	public InvalidZkLockPropertyException(String property, String value, String problem, String action) {
		super("Invalid value '" + value + "' for '" + property + "': " + problem);
		this.property = property;
		this.value = value;
		this.problem = problem;
		this.action = action;
	}

	/**
	 * Return the name of the property.
	 * @return the property name
	 */
	public String getProperty() {
		return this.property;
	}

	/**
	 * Return the value that was refused.
	 * @return the value
	 */
	public String getValue() {
		return this.value;
	}

	/**
	 * Return why the value cannot be used.
	 * @return the problem
	 */
	public String getProblem() {
		return this.problem;
	}

	/**
	 * Return what to do instead.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
