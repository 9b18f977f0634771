package dev.zklock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The leader elections this application instance takes part in, one per group: the groups that
 * its {@code @ZkLeader} methods name and those listed in {@code zklock.leader.groups}.
 * <p>
 * {@link #isLeader(String)} reads local state only and is meant for hot paths. The methods that
 * describe other participants read ZooKeeper and throw a {@link ZkLockException} when it cannot
 * be reached. Every method throws an {@link IllegalArgumentException} for a group this instance
 * does not take part in.
 *
 * @since 0.1.0
 * @see dev.zklock.annotation.ZkLeader
 * @see LeadershipGrantedEvent
 * @see LeadershipRevokedEvent
 */
public interface ZkLeadership {

	/**
	 * Return the id under which this instance takes part in elections.
	 * @return the participant id
	 */
	String participantId();

	/**
	 * Return the groups this instance takes part in.
	 * @return the group names
	 */
	Set<String> groups();

	/**
	 * Return whether this instance currently leads the group. It does not while the connection
	 * to ZooKeeper is suspended, before the application has started and after it has stopped.
	 * @param group the group
	 * @return whether this instance is the leader
	 */
	boolean isLeader(String group);

	/**
	 * Return the participant id of the group's current leader, as ZooKeeper sees it.
	 * @param group the group
	 * @return the leader's participant id, or empty when there is no participant
	 */
	Optional<String> currentLeader(String group);

	/**
	 * Return the participant ids of the group's participants, the leader first and the others
	 * in the order in which they would take over.
	 * @param group the group
	 * @return the participant ids
	 */
	List<String> participants(String group);

	/**
	 * Return the fencing token of the group's current term: the creation zxid of the leader's
	 * election node. It is larger for every new term, so a resource that remembers the largest
	 * epoch it has seen can reject a late write from a former leader. On the leader it is read
	 * from memory; elsewhere it is read from ZooKeeper.
	 * @param group the group
	 * @return the epoch of the current term, or empty when there is no participant
	 */
	OptionalLong epoch(String group);

	/**
	 * Step down as the group's leader and rejoin the election behind the other participants,
	 * so that the next one takes over. This instance is no longer the leader when the method
	 * returns. If it is the only participant, it becomes the leader again in a new term.
	 * @param group the group
	 * @return whether this instance was the leader
	 */
	boolean yieldLeadership(String group);

	/**
	 * Return the current term of this instance's leadership of the group, as a handle that
	 * leader-only code can check while it runs and whose epoch fences its writes.
	 * @param group the group
	 * @return the term, or empty when this instance does not lead the group
	 * @since 0.2.0
	 */
	default Optional<LeaderTerm> term(String group) {
		if (!isLeader(group)) {
			return Optional.empty();
		}
		OptionalLong epoch = epoch(group);
		return (epoch.isPresent() && isLeader(group))
				? Optional.of(new LeadershipTerm(this, group, epoch.getAsLong())) : Optional.empty();
	}

	/**
	 * Wait until this instance leads the group, for code that must lead to do its work.
	 * @param group the group
	 * @param timeout the longest time to wait
	 * @return the term, or empty if this instance did not lead the group within the timeout
	 * @throws InterruptedException if the thread is interrupted while it waits
	 * @since 0.2.0
	 */
	default Optional<LeaderTerm> awaitLeadership(String group, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		Optional<LeaderTerm> term = term(group);
		while (term.isEmpty() && System.nanoTime() - deadline < 0) {
			Thread.sleep(20);
			term = term(group);
		}
		return term;
	}

}
