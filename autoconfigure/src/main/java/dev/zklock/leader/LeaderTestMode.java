package dev.zklock.leader;

/**
 * How an instance takes part in leader election, so that tests can fix the outcome.
 *
 * @since 0.1.0
 */
public enum LeaderTestMode {

	/**
	 * Take part in a real election in ZooKeeper (the default, and the only mode for production).
	 */
	ELECTION,

	/**
	 * Lead every group, without ZooKeeper: leader-only methods always run.
	 */
	ALWAYS,

	/**
	 * Lead no group, without ZooKeeper: leader-only methods never run (they are skipped, or throw
	 * {@link dev.zklock.NotLeaderException} as their annotation says).
	 */
	NEVER

}
