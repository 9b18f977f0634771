package dev.zklock.benchmarks.library;

/**
 * One participant's place in a leader election, with its own session; closing it leaves the
 * election.
 */
public interface Participation extends AutoCloseable {

	/**
	 * Return the session timeout the participant's client negotiated with ZooKeeper.
	 * @return the timeout in milliseconds
	 */
	int sessionTimeoutMillis();

	/**
	 * Return whether this participant leads its group now, as far as it knows.
	 * @return whether it is the leader
	 */
	boolean isLeader();

	/**
	 * Run work only if this participant leads its group, the way the library guards leader-only
	 * code.
	 * @param work the work
	 */
	void runIfLeader(Runnable work);

	@Override
	void close();

}
