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
	 * Return work guarded so that it runs only where this participant leads its group.
	 * @param guard how the check is made: inline, or through a proxy
	 * @param work the work
	 * @return the guarded work
	 */
	Runnable leaderOnly(Guard guard, Runnable work);

	@Override
	void close();

}
