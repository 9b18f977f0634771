package dev.zklock.systemtest.check;

/**
 * What a correct run guarantees, and what a {@link Violation} breaks.
 */
public enum Invariant {

	/**
	 * No two operations that ended ok overlap in time on one key when their locks conflict (two
	 * exclusive, or one exclusive and one shared).
	 */
	EXCLUSION("ok operations held conflicting locks at once"),

	/**
	 * A register's value equals the number of writes it accepted, and no more increments ended ok
	 * than it accepted writes: no increment was lost.
	 */
	LOST_UPDATE("an increment was lost"),

	/**
	 * An operation whose lock was superseded ended in lock-lost or fenced, never ok. It is
	 * superseded when a conflicting operation on the same key with a higher fencing token
	 * started before it ended: that one was granted the lock while this one still ran, so this
	 * one's lock was gone (its session expired, or the library is wrong).
	 */
	SILENT_TAKEOVER("an operation ended ok although its lock was superseded"),

	/**
	 * Leader ticks of two terms never interleave (a tick of the earlier term ending after the
	 * later term's first tick started) unless the earlier term's process logged its revocation: a
	 * paused leader may finish a tick before it learns, but must learn.
	 */
	DUAL_LEADER("two leaders ticked at once, the earlier one never revoked"),

	/**
	 * No leader tick starts after its process logged the revocation of that term.
	 */
	TICK_AFTER_REVOCATION("a leader ticked after its revocation"),

	/**
	 * A term that ended before another began has a lower epoch, and no two processes share an
	 * epoch.
	 */
	EPOCH_ORDER("a later term's epoch is not higher");

	private final String description;

	Invariant(String description) {
		this.description = description;
	}

	/**
	 * Return what a violation of this invariant means.
	 * @return a short description
	 */
	public String description() {
		return this.description;
	}

}
