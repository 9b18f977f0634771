package dev.zklock.systemtest.history;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What an {@link Operation} was.
 */
public enum OpKind {

	/**
	 * A read-modify-write of a register under an exclusive lock.
	 */
	EXCLUSIVE_INCREMENT("excl-incr"),

	/**
	 * A read of a register under a shared lock.
	 */
	SHARED_READ("shared-read"),

	/**
	 * One run of a leader-only scheduled task, under the leader's epoch.
	 */
	LEADER_TICK("leader-tick"),

	/**
	 * An interval in which the process ran its leader-only component, under the term's epoch.
	 */
	COMPONENT_RUN("component-run"),

	/**
	 * One run of a {@code @SchedulerLock} job: a record when it starts ({@code start} and
	 * {@code end} equal) and one when it ends, the detail saying which.
	 */
	SCHEDULED_RUN("scheduled-run"),

	/**
	 * The process learnt it became leader, with the term's epoch.
	 */
	LEADER_GRANTED("leader-granted"),

	/**
	 * The process learnt it is no longer leader for the epoch.
	 */
	LEADER_REVOKED("leader-revoked"),

	/**
	 * The process's ZooKeeper connection changed state (the detail says to which: connected,
	 * suspended, reconnected, lost, read-only), as the library's client reported it.
	 */
	CONNECTION("connection"),

	/**
	 * A fault the test injected (the detail says which), recorded for the report.
	 */
	NEMESIS("nemesis");

	private final String label;

	OpKind(String label) {
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

	/**
	 * Return whether this kind runs under a lock.
	 * @return whether it is exclusive or shared
	 */
	public boolean isLocked() {
		return this == EXCLUSIVE_INCREMENT || this == SHARED_READ;
	}

	/**
	 * Return whether this kind runs under an exclusive lock.
	 * @return whether it is exclusive
	 */
	public boolean isExclusive() {
		return this == EXCLUSIVE_INCREMENT;
	}

	/**
	 * Return whether this kind is a leadership event or tick.
	 * @return whether it concerns leadership
	 */
	public boolean isLeadership() {
		return this == LEADER_TICK || this == LEADER_GRANTED || this == LEADER_REVOKED;
	}

}
