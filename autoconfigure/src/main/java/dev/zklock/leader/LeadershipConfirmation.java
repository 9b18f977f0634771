package dev.zklock.leader;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;

import dev.zklock.lock.NodeConfirmation;
import dev.zklock.lock.Pauses;

/**
 * Whether this instance still leads one group after the process may have paused: a read of
 * local state, unless the pause may have outlasted the session since the term was last
 * confirmed; then the server must confirm that our node is still there, owned by our session.
 * A paused leader wakes up believing it leads while another may already do.
 */
final class LeadershipConfirmation {

	private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(2);

	private final CuratorFramework client;

	private final ElectionNodes nodes;

	private final ElectionState state;

	private final ElectionThread thread;

	private final Pauses pauses;

	private volatile long confirmedAt = System.nanoTime();

	LeadershipConfirmation(CuratorFramework client, ElectionNodes nodes, ElectionState state, ElectionThread thread,
			Pauses pauses) {
		this.client = client;
		this.nodes = nodes;
		this.state = state;
		this.thread = thread;
		this.pauses = pauses;
	}

	/**
	 * Record that a look at ZooKeeper that began at the given time found this instance leading.
	 * @param lookedAt when the look began, in {@link System#nanoTime()}
	 */
	void confirmed(long lookedAt) {
		this.confirmedAt = lookedAt;
	}

	/**
	 * Return whether this instance leads, asking the server after a pause that may have
	 * outlasted the session.
	 */
	boolean isLeader() {
		if (!this.state.isLeader()) {
			return false;
		}
		if (!this.pauses.mayHavePausedSince(this.confirmedAt)) {
			return true;
		}
		return confirmAfterPause();
	}

	private boolean confirmAfterPause() {
		long started = System.nanoTime();
		String path = this.state.node();
		if (path == null) {
			return false;
		}
		try {
			Stat own = NodeConfirmation.nodeStat(this.client, path, CONFIRM_TIMEOUT);
			if (own == null || own.getEphemeralOwner() != this.nodes.sessionId()) {
				this.state.nodeGone(path);
				this.thread.requestCheck();
				return false;
			}
			this.confirmedAt = started;
			return this.state.isLeader();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			// Unanswered: fall through.
		}
		this.state.doubted();
		this.thread.requestCheck();
		return false;
	}

}
