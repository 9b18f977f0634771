package dev.zklock.systemtest.fault;

/**
 * The kinds of fault a system test injects.
 */
enum Nemesis {

	/**
	 * {@code kill -9} of an application process, started again after a while.
	 */
	KILL_APP("kill-app"),

	/**
	 * Graceful stop ({@code SIGTERM}) of an application process, started again after a while.
	 */
	STOP_APP("stop-app"),

	/**
	 * {@code SIGSTOP} of a process holding a lock, for longer than its session timeout, then
	 * {@code SIGCONT}.
	 */
	PAUSE_HOLDER("pause-holder"),

	/**
	 * A partition of one application process from every ZooKeeper server, healed later.
	 */
	PARTITION_APP("partition-app"),

	/**
	 * {@code kill -9} of a ZooKeeper follower, restarted after a while.
	 */
	KILL_ZK_FOLLOWER("kill-zk-follower"),

	/**
	 * {@code kill -9} of the ZooKeeper leader, restarted after a while.
	 */
	KILL_ZK_LEADER("kill-zk-leader"),

	/**
	 * A slow link between one application process and every ZooKeeper server: its chaos proxy
	 * delays every byte each way, then forwards at once again.
	 */
	SLOW_APP("slow-app"),

	/**
	 * {@code SIGSTOP} of a ZooKeeper server, the leader or a follower, then {@code SIGCONT}.
	 */
	PAUSE_ZK("pause-zk"),

	/**
	 * A partition inside the ensemble, healed later: the ZooKeeper leader cut off from both
	 * followers, a follower (the one with the most clients) cut off from the other two, or a
	 * split of one server from two; every application process keeps its links to every server.
	 */
	PARTITION_ZK("partition-zk");

	private final String label;

	Nemesis(String label) {
		this.label = label;
	}

	String label() {
		return this.label;
	}

	boolean targetsApp() {
		return this == KILL_APP || this == STOP_APP || this == PAUSE_HOLDER || this == PARTITION_APP || this == SLOW_APP;
	}

	/**
	 * Return whether this fault takes a ZooKeeper server away: two at once would cost the
	 * quorum.
	 */
	boolean targetsServer() {
		return this == KILL_ZK_FOLLOWER || this == KILL_ZK_LEADER || this == PAUSE_ZK || this == PARTITION_ZK;
	}

}
