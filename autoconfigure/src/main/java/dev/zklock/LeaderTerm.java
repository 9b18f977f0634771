package dev.zklock;

/**
 * One term of this instance's leadership of a group, as seen from the code that runs as the
 * leader: a handle to check, at any point of a long run, that the leadership is still held, and
 * the epoch to pass with every leader-only write as a fencing token.
 *
 * <pre class="code">
 * LeaderTerm term = ZkLeaderContext.current();
 * for (Invoice invoice : batch) {
 *     term.ensureValid();
 *     jdbc.update("update ledger set total = ?, epoch = ? where id = ? and epoch &lt;= ?",
 *             total, term.epoch(), id, term.epoch());
 * }
 * </pre>
 *
 * @since 0.2.0
 * @see ZkLeadership#term(String)
 * @see ZkLeaderContext
 */
public interface LeaderTerm {

	/**
	 * Return the group.
	 * @return the group
	 */
	String group();

	/**
	 * Return the epoch of the term, its fencing token: larger for every new term of the group.
	 * @return the epoch
	 * @see ZkLeadership#epoch(String)
	 */
	long epoch();

	/**
	 * Return whether this instance still leads the group in this term, from local state. It
	 * does not while the connection to ZooKeeper is suspended; if the connection comes back
	 * with the same session, our election node is still the lowest and the same term resumes,
	 * with the same epoch: the term is valid again. It does not once the session was lost, or
	 * the leadership yielded or left, even if a later term with another epoch began since.
	 * @return whether the term is valid
	 */
	boolean isValid();

	/**
	 * Throw unless {@link #isValid()}.
	 * @throws LeadershipLostException if the term has ended
	 */
	void ensureValid();

}
