package dev.zklock.leader;

/**
 * Told of the changes of one instance's leadership, in order, while the election that changed
 * holds its lock: implementations must hand the change on and return at once.
 */
interface LeadershipListener {

	void granted(String group, long epoch);

	void revoked(String group, long epoch, String reason);

}
