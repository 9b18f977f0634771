package dev.zklock.leader;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The state machine of this instance's part in one group's election (running, connected,
 * leading, and the generation of what it knows), changed only under this object's lock.
 * <p>
 * Every event that can make an earlier look at ZooKeeper out of date (a connection change, the
 * deletion of our node, a yield, a stop) bumps a generation number and revokes leadership at
 * once. Leadership is granted only for a look that began in the current generation, so a
 * check that raced with such an event can never grant (the interleavings behind CURATOR-620).
 */
final class ElectionState {

	private static final Log logger = LogFactory.getLog(ElectionState.class);

	private final String group;

	private final String participantId;

	private final LeadershipListener listener;

	private volatile boolean leader;

	private volatile boolean running;

	private volatile boolean connected;

	private long generation;

	private long epoch;

	private final ElectionNodeSet nodes = new ElectionNodeSet();

	ElectionState(String group, String participantId, LeadershipListener listener) {
		this.group = group;
		this.participantId = participantId;
		this.listener = listener;
	}

	boolean isLeader() {
		return this.leader;
	}

	boolean isRunning() {
		return this.running;
	}

	String notLeaderReason() {
		if (!this.running) {
			return "the application is not running";
		}
		if (!this.connected) {
			return "its connection to ZooKeeper is suspended";
		}
		return "another participant leads";
	}

	/**
	 * Return the epoch of the current term, or {@code -1} when this instance does not lead.
	 */
	synchronized long leaderEpoch() {
		return this.leader ? this.epoch : -1;
	}

	/**
	 * Start taking part.
	 * @return the generation to pass to {@link #connectedAtStart}, or {@code -1} if already
	 * running
	 */
	synchronized long start() {
		if (this.running) {
			return -1;
		}
		this.running = true;
		this.connected = false;
		return ++this.generation;
	}

	/**
	 * Record the connection state read at start, unless a connection event came since.
	 */
	synchronized void connectedAtStart(long startGeneration, boolean connected) {
		if (this.generation == startGeneration) {
			this.connected = connected;
		}
	}

	/**
	 * Stop taking part.
	 * @return whether this instance was running
	 */
	synchronized boolean stop() {
		if (!this.running) {
			return false;
		}
		this.running = false;
		this.generation++;
		revoke("it left the election");
		return true;
	}

	synchronized boolean yieldLeadership() {
		if (!this.leader) {
			return false;
		}
		this.generation++;
		revoke("it yielded");
		this.nodes.abandonCurrent();
		return true;
	}

	synchronized void suspended() {
		this.generation++;
		this.connected = false;
		revoke("its connection to ZooKeeper was suspended");
	}

	/**
	 * The session is gone, and with it our node, unless the server has not expired the session
	 * yet: then the node must not be mistaken for ours later (CURATOR-696).
	 */
	synchronized void lost() {
		this.generation++;
		this.connected = false;
		revoke("its ZooKeeper session was lost");
		this.nodes.abandonCurrent();
	}

	/**
	 * The process may have paused for longer than the session could survive, and the server
	 * could not confirm our node: stop leading until a fresh check finds our node lowest again.
	 */
	synchronized void doubted() {
		this.generation++;
		revoke("the process paused and ZooKeeper could not confirm the leadership afterwards");
	}

	synchronized void reconnected() {
		this.generation++;
		this.connected = true;
	}

	/**
	 * Our node was deleted, or is not owned by the current session.
	 */
	synchronized void nodeGone(String path) {
		if (this.nodes.isCurrent(path)) {
			this.generation++;
			revoke("its election node is gone");
			this.nodes.abandonCurrent();
		}
	}

	/**
	 * Our node changed (a watch on it fired): stop leading until a fresh check finds it ours
	 * and lowest again.
	 */
	synchronized void ownNodeChanged(String path) {
		if (this.nodes.isCurrent(path)) {
			this.generation++;
			revoke("its election node changed or is gone");
		}
	}

	/**
	 * Return the generation a check may begin in, or {@code -1} if it should not begin.
	 */
	synchronized long beginCheck() {
		return (this.running && this.connected) ? this.generation : -1;
	}

	/**
	 * Return whether nothing that could make a look out of date happened since the look of the
	 * given generation began.
	 */
	synchronized boolean isCurrent(long checkGeneration) {
		return this.running && this.connected && checkGeneration == this.generation;
	}

	/**
	 * Remember a create about to be sent, unless this instance stopped.
	 * @return whether to send it
	 */
	synchronized boolean createSent(String protectedId) {
		if (!this.running) {
			return false;
		}
		this.nodes.createSent(protectedId);
		return true;
	}

	/**
	 * Look for the nodes of the creates remembered among the group's children just read: one
	 * becomes ours if we have none, every other is abandoned.
	 * @return whether a node was adopted
	 */
	synchronized boolean resolveCreates(long readAt, String groupPath, List<String> children) {
		return this.nodes.resolveCreates(readAt, groupPath, children) && this.running;
	}

	/**
	 * Record a create's reply: its node becomes ours if we have none and still take part.
	 */
	synchronized ElectionNodeSet.CreateAnswer createAnswered(String protectedId, @Nullable String path) {
		return this.nodes.createAnswered(protectedId, path, this.running);
	}

	/**
	 * Return the local time of a read of the children about to be sent.
	 */
	synchronized long readSent() {
		return this.nodes.readSent();
	}

	synchronized boolean hasUnresolvedCreates() {
		return this.nodes.hasUnresolvedCreates();
	}

	synchronized @Nullable String node() {
		return this.running ? this.nodes.current() : null;
	}

	/**
	 * Grant leadership if nothing happened since the check that found our node lowest began.
	 * @return whether this instance leads now
	 */
	synchronized boolean grant(long checkGeneration, String path, long czxid, boolean connectedNow) {
		if (this.leader) {
			return true;
		}
		if (!this.running || !this.connected || !connectedNow || checkGeneration != this.generation
				|| !this.nodes.isCurrent(path)) {
			return false;
		}
		this.epoch = czxid;
		this.leader = true;
		logger.info("'" + this.participantId + "' is now the leader of group '" + this.group + "' (epoch " + czxid
				+ ")");
		this.listener.granted(this.group, czxid);
		return true;
	}

	synchronized List<String> abandonedNodes() {
		return this.nodes.abandoned();
	}

	synchronized void deleted(String path) {
		this.nodes.deleted(path);
	}

	/**
	 * Give up our node, every abandoned one and the creates not resolved, to delete them all.
	 */
	synchronized ElectionNodeSet.Release releaseNodes() {
		return this.nodes.releaseAll();
	}

	private void revoke(String reason) {
		if (this.leader) {
			this.leader = false;
			logger.info("'" + this.participantId + "' is no longer the leader of group '" + this.group + "' (epoch "
					+ this.epoch + "): " + reason);
			this.listener.revoked(this.group, this.epoch, reason);
		}
	}

}
