package dev.zklock.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zklock.lock.NodeConfirmation;
import dev.zklock.lock.PauseMonitor;

/**
 * This instance's part in the election of one group: every participant has an ephemeral
 * sequential node under the group's node, and the lowest leads.
 * <p>
 * Our node is the lowest, and we lead, only if it exists, is owned by the current session and
 * nothing changed while we looked (see {@link ElectionState}). Otherwise we watch the node just
 * before ours. SUSPENDED revokes leadership until RECONNECTED and a new check; LOST revokes it,
 * abandons our node and rejoins with a new one once the client has a new session.
 */
final class GroupElection {

	private static final Log logger = LogFactory.getLog(GroupElection.class);

	private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(2);

	private final String group;

	private final String participantId;

	private final CuratorFramework client;

	private final ElectionNodes nodes;

	private final ElectionState state;

	private final ElectionThread thread;

	private final ConnectionStateListener connectionListener = (client, state) -> connectionStateChanged(state);

	private final Watcher watcher = this::nodeChanged;

	private volatile CompletableFuture<Void> firstCheck = CompletableFuture.completedFuture(null);

	private final PauseMonitor pauseMonitor;

	private volatile long confirmedAt = System.nanoTime();

	GroupElection(String group, String participantId, CuratorFramework client, String groupPath,
			LeadershipListener listener, PauseMonitor pauseMonitor) {
		this.group = group;
		this.pauseMonitor = pauseMonitor;
		this.participantId = participantId;
		this.client = client;
		this.nodes = new ElectionNodes(client, groupPath);
		this.state = new ElectionState(group, participantId, listener);
		this.thread = new ElectionThread("zklock-leader-" + group, this::check);
	}

	ElectionNodes nodes() {
		return this.nodes;
	}

	/**
	 * Return whether this instance leads: a read of local state, unless the process may have
	 * paused since the term was last confirmed, for longer than the session could survive. Then
	 * the server must confirm that our node is still there, owned by our session, before the
	 * answer is yes: a paused leader wakes up believing it leads while another may already do.
	 */
	boolean isLeader() {
		if (!this.state.isLeader()) {
			return false;
		}
		if (!this.pauseMonitor.mayHavePausedSince(this.confirmedAt)) {
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

	long leaderEpoch() {
		return this.state.leaderEpoch();
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
			return this.firstCheck;
		}
		this.firstCheck = new CompletableFuture<>();
		this.thread.start();
		this.client.getConnectionStateListenable().addListener(this.connectionListener);
		this.state.connectedAtStart(startGeneration, this.nodes.isConnected());
		this.thread.requestCheck();
		return this.firstCheck;
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
		return this.thread.finish(this::deleteNodes).whenComplete((result, ex) -> this.nodes.removeWatchers());
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

	/**
	 * Find our place in the election, and take the leadership or watch our predecessor. Runs on
	 * the election thread only.
	 */
	private void check() {
		try {
			long generation = this.state.beginCheck();
			if (generation >= 0) {
				checkInGeneration(generation);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			if (this.state.isRunning()) {
				logger.warn("Could not check the election of group '" + this.group + "'; trying again", ex);
				this.thread.requestCheckLater();
			}
		}
		finally {
			this.firstCheck.complete(null);
		}
	}

	private void checkInGeneration(long generation) throws Exception {
		long looked = System.nanoTime();
		deleteAbandoned();
		String path = ensureNode();
		if (path == null) {
			return;
		}
		Stat own = this.nodes.watch(path, this.watcher);
		if (own == null || own.getEphemeralOwner() != this.nodes.sessionId()) {
			this.state.nodeGone(path);
			this.thread.requestCheck();
			return;
		}
		List<String> children = this.nodes.children();
		int index = children.indexOf(ElectionNodes.name(path));
		if (index == 0) {
			if (this.state.grant(generation, path, own.getCzxid(), this.nodes.isConnected())) {
				this.confirmedAt = looked;
			}
			else {
				this.thread.requestCheck(); // Something changed while we looked: look again.
			}
		}
		else if (index < 0 || this.nodes.watch(this.nodes.path(children.get(index - 1)), this.watcher) == null) {
			this.thread.requestCheck(); // Our node or our predecessor went in the meantime: look again.
		}
	}

	private @Nullable String ensureNode() throws Exception {
		String node = this.state.node();
		if (node != null || !this.state.isRunning()) {
			return node;
		}
		String created = this.nodes.create(this.participantId);
		if (!this.state.adopt(created)) {
			this.nodes.deleteGuaranteed(created); // Stopped in the meantime.
			return null;
		}
		return created;
	}

	private void deleteAbandoned() throws Exception {
		for (String path : this.state.abandonedNodes()) {
			this.nodes.delete(path);
			this.state.deleted(path);
		}
	}

	private void deleteNodes() {
		for (String path : this.state.releaseNodes()) {
			try {
				this.nodes.deleteGuaranteed(path);
			}
			catch (Exception ex) {
				logger.warn("Could not delete election node " + path + " yet; deleting it in the background", ex);
			}
		}
	}

}
