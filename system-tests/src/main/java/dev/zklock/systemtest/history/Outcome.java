package dev.zklock.systemtest.history;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How an {@link Operation} ended, as its process saw it.
 */
public enum Outcome {

	/**
	 * It completed, and its process believes it held its lock or leadership throughout.
	 */
	OK("ok"),

	/**
	 * The register rejected an access because its token was below the fence.
	 */
	FENCED("fenced"),

	/**
	 * The lock or leadership was reported lost ({@code LockLostException} or a revocation).
	 */
	LOCK_LOST("lock-lost"),

	/**
	 * The lock was not obtained in time; the operation did not run.
	 */
	TIMEOUT("timeout"),

	/**
	 * Anything else went wrong; the detail says what.
	 */
	ERROR("error");

	private final String label;

	Outcome(String label) {
		this.label = label;
	}

	/**
	 * Return the label used in history files.
	 * @return the label
	 */
	@JsonValue
	public String label() {
		return this.label;
	}

}
