package dev.zklock.leader;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import dev.zklock.LeaderTerm;
import dev.zklock.lock.Pauses;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * This instance's part in the election of one group, joined and left, and the events that
 * make it look at the election again: every participant has an ephemeral sequential node under
 * the group's node, and the lowest leads.
 * <p>
 * Each look runs on the group's {@link ElectionThread} ({@link ElectionCheck}); what it found is
 * kept in {@link ElectionState}. SUSPENDED revokes leadership until RECONNECTED and a new check;
 * LOST revokes it, abandons our node and rejoins with a new one once the client has a new
 * session.
 */
final class GroupElection {

	private final String group;

	private final CuratorFramework client;

	private final ElectionNodes nodes;

	private final ElectionState state;

	private final ElectionThread thread;

	private final LeadershipConfirmation confirmation;

	private final ElectionCheck check;

	private final ConnectionStateListener connectionListener = (client, state) -> connectionStateChanged(state);

	GroupElection(String group, String participantId, CuratorFramework client, String groupPath,
			LeadershipListener listener, Pauses pauses) {
		this.group = group;
		this.client = client;
		this.nodes = new ElectionNodes(client, groupPath);
		this.state = new ElectionState(group, participantId, listener);
		this.thread = new ElectionThread("zklock-leader-" + group, this::check);
		this.confirmation = new LeadershipConfirmation(client, this.nodes, this.state, this.thread, pauses);
		Watcher watcher = this::nodeChanged;
		this.check = new ElectionCheck(group, participantId, this.nodes, this.state, this.thread, this.confirmation,
				watcher);
	}

	ElectionNodes nodes() {
		return this.nodes;
	}

	/**
	 * Return whether this instance leads: a read of local state, confirmed by the server after
	 * a pause that may have outlasted the session (see {@link LeadershipConfirmation}).
	 */
	boolean isLeader() {
		return this.confirmation.isLeader();
	}

	long leaderEpoch() {
		return this.state.leaderEpoch();
	}

	/**
	 * Return the current term, from local state only: the epoch is that of the leadership
	 * {@link #isLeader()} saw, or there is no term if it ended in between.
	 */
	Optional<LeaderTerm> term() {
		if (!isLeader()) {
			return Optional.empty();
		}
		long epoch = this.state.leaderEpoch();
		return (epoch >= 0) ? Optional.of(new ElectionTerm(this.group, epoch, this)) : Optional.empty();
	}

	/**
	 * Return whether this instance leads in the term of the given epoch, from local state only.
	 */
	boolean leadsIn(long epoch) {
		return isLeader() && this.state.leaderEpoch() == epoch;
	}

	String notLeaderReason() {
		return this.state.notLeaderReason();
	}

	/**
	 * Join the election.
	 * @return a future completed when the first check has ended, whatever its outcome
	 */
	synchronized CompletableFuture<Void> start() {
		long startGeneration = this.state.start();
		if (startGeneration < 0) {
			return this.check.firstCheck();
		}
		CompletableFuture<Void> firstCheck = this.check.awaitFirst();
		this.thread.start();
		this.client.getConnectionStateListenable().addListener(this.connectionListener);
		this.state.connectedAtStart(startGeneration, this.nodes.isConnected());
		this.thread.requestCheck();
		return firstCheck;
	}

	/**
	 * Leave the election: give up leadership at once, then, on the election thread, delete our
	 * node so that the next participant takes over without waiting for our session to end.
	 * @return a future completed when our node has been deleted
	 */
	synchronized CompletableFuture<Void> stop() {
		if (!this.state.stop()) {
			return CompletableFuture.completedFuture(null);
		}
		this.client.getConnectionStateListenable().removeListener(this.connectionListener);
		return this.thread.finish(this.check::deleteNodes).whenComplete((result, ex) -> this.nodes.removeWatchers());
	}

	/**
	 * Stop the election thread at once, after {@link #stop()} took too long, and leave the
	 * deletion of our node to the client's background.
	 */
	synchronized void stopNow() {
		this.thread.kill();
		for (String path : this.state.releaseNodes()) {
			this.nodes.deleteInBackground(path);
		}
		this.nodes.removeWatchers();
	}

	/**
	 * Step down and rejoin at the back.
	 * @return whether this instance was the leader
	 */
	boolean yieldLeadership() {
		boolean yielded = this.state.yieldLeadership();
		if (yielded) {
			this.thread.requestCheck();
		}
		return yielded;
	}

	private void check() {
		this.check.run();
	}

	private void connectionStateChanged(ConnectionState newState) {
		switch (newState) {
			case SUSPENDED, READ_ONLY -> this.state.suspended();
			case LOST -> this.state.lost();
			case CONNECTED, RECONNECTED -> {
				this.state.reconnected();
				this.thread.requestCheck();
			}
		}
	}

	private void nodeChanged(WatchedEvent event) {
		if (event.getType() == Watcher.Event.EventType.None) {
			return; // Connection changes come through the connection state listener.
		}
		if (event.getType() == Watcher.Event.EventType.NodeDeleted && event.getPath() != null) {
			this.state.nodeGone(event.getPath());
		}
		this.thread.requestCheck();
	}

}
