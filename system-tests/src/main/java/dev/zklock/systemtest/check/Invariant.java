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
	 * An operation that obtained its lock (it has a token) and ended {@code fenced} or
	 * {@code lock-lost} is explained by a fault injected into its process, or a change of its
	 * process's ZooKeeper connection, around that time; a correct library loses a lock only so. A
	 * lock granted to two live processes at once shows as an unexplained {@code fenced}.
	 */
	UNEXPLAINED_FAILURE("an operation lost its lock with no fault or connection change to explain it"),

	/**
	 * An operation that ended in {@code error} never ran its critical section: the error came
	 * before its lock was granted (no token).
	 */
	ERROR_IN_CRITICAL_SECTION("an operation failed with an error inside its critical section"),

	/**
	 * Fencing tokens grow with grants in real time: an ok exclusive operation on a key has a
	 * higher token than every ok operation on the key that ended before it started, and an ok
	 * shared one a higher token than every ok exclusive one that ended before it started.
	 */
	TOKEN_ORDER("a fencing token did not exceed the token of an earlier grant"),

	/**
	 * No tick of a leadership term starts after a term with a higher epoch began (its grant, or
	 * its first tick when the grant was not logged), revoked afterwards or not: the old leader has
	 * no business acting once another leads.
	 */
	STALE_TICK("a leader ticked after a later term began"),

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
	EPOCH_ORDER("a later term's epoch is not higher"),

	/**
	 * The leader-only components ({@code @ZkLeaderComponent}) of two processes never run at once:
	 * no ok {@code component-run} intervals of one group from two processes overlap.
	 */
	COMPONENT_EXCLUSION("leader-only components of two processes ran at once");

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
