package dev.zklock;

/**
 * How a lock is held.
 *
 * @since 0.1.0
 */
public enum LockMode {

	/**
	 * One holder at a time; excludes every other holder of the key, exclusive or shared.
	 */
	EXCLUSIVE,

	/**
	 * Shared holders run together, but never beside an exclusive holder of the key.
	 */
	SHARED

}
