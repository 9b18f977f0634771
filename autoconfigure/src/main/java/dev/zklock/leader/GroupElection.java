package dev.zklock.leader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.zklock.LeaderTerm;
import dev.zklock.lock.Pauses;
import dev.zklock.zookeeper.ZooKeeperPort;
import dev.zklock.zookeeper.ZooKeeperPort.Connection;

/**
 * This instance's part in the election of one group, joined and left, and the events that
 * make it look at the election again: every participant has an ephemeral sequential node under
 * the group's node, and the lowest leads.
 * <p>
 * Every look is a chain of requests through the {@link ZooKeeperPort} ({@link ElectionCheck});
 * what it found is kept in {@link ElectionState}. SUSPENDED revokes leadership until
 * RECONNECTED and a new look; LOST revokes it, abandons our node and rejoins with a new one once
 * the client has a new session.
 */
final class GroupElection {

	private final String group;

	private final ZooKeeperPort port;

	private final ElectionNodes nodes;

	private final ElectionState state;

	private final LeadershipConfirmation confirmation;

	private final ElectionCheck check;

	private final ZooKeeperPort.ConnectionListener connectionListener = this::connectionChanged;

	GroupElection(String group, String participantId, ZooKeeperPort port, String groupPath,
			LeadershipListener listener, Pauses pauses, Duration readTimeout) {
		this.group = group;
		this.port = port;
		this.nodes = new ElectionNodes(port, groupPath, readTimeout);
		this.state = new ElectionState(group, participantId, listener);
		this.confirmation = new LeadershipConfirmation(port, this.state, pauses, this::checkAfterDoubt);
		this.check = new ElectionCheck(group, participantId, this.nodes, this.state, this.confirmation);
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

	/**
	 * Return whether this instance leads, asking the server without waiting after a pause that
	 * may have outlasted the session.
	 */
	CompletableFuture<Boolean> isLeaderAsync() {
		return this.confirmation.isLeaderAsync();
	}

	/**
	 * Return whether this instance leads and says so without asking the server.
	 */
	boolean isLeaderWithoutAsking() {
		return this.confirmation.isLeaderWithoutAsking();
	}

	/**
	 * Return our current node, or {@code null}.
	 */
	@Nullable String node() {
		return this.state.node();
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
	 * @return a future completed when the first look has ended, whatever its outcome
	 */
	synchronized CompletableFuture<Void> start() {
		long startGeneration = this.state.start();
		if (startGeneration < 0) {
			return this.check.firstCheck();
		}
		CompletableFuture<Void> firstCheck = this.check.awaitFirst();
		this.port.addConnectionListener(this.connectionListener);
		this.state.connectedAtStart(startGeneration, this.port.isConnected());
		this.check.request();
		return firstCheck;
	}

	/**
	 * Leave the election: give up leadership at once, then delete our node (and every node of
	 * ours not deleted yet), so that the next participant takes over without waiting for our
	 * session to end.
	 * @return a future completed when the server has answered the deletions
	 */
	synchronized CompletableFuture<Void> stop() {
		if (!this.state.stop()) {
			return CompletableFuture.completedFuture(null);
		}
		this.port.removeConnectionListener(this.connectionListener);
		this.check.removeWatches();
		ElectionNodeSet.Release release = this.state.releaseNodes();
		List<CompletableFuture<Void>> deletions = new ArrayList<>();
		for (String path : release.nodes()) {
			deletions.add(this.check.delete(path));
		}
		if (!release.createIds().isEmpty()) {
			deletions.add(this.check.deleteNodesOf(release.createIds()));
		}
		return CompletableFuture.allOf(deletions.toArray(CompletableFuture[]::new));
	}

	/**
	 * Give up waiting for {@link #stop()}: its deletions go on in the client's background, for
	 * as long as the session lives.
	 */
	synchronized void stopNow() {
		this.check.removeWatches();
	}

	/**
	 * Step down and rejoin at the back.
	 * @return whether this instance was the leader
	 */
	boolean yieldLeadership() {
		boolean yielded = this.state.yieldLeadership();
		if (yielded) {
			this.check.request();
		}
		return yielded;
	}

	private void checkAfterDoubt() {
		this.check.request();
	}

	private void connectionChanged(Connection connection) {
		switch (connection) {
			case SUSPENDED -> this.state.suspended();
			case LOST -> this.state.lost();
			case CONNECTED, RECONNECTED -> {
				this.state.reconnected();
				this.check.request();
			}
		}
	}

}
