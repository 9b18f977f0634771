package dev.zklock.leader;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One look at ZooKeeper for one group's election, on its election thread: delete the nodes we
 * abandoned, make sure we have a node, then take the leadership if ours is the lowest or watch
 * the node just before ours.
 * <p>
 * Our node is the lowest, and we lead, only if it exists, is owned by the current session and
 * nothing changed while we looked (see {@link ElectionState}).
 */
final class ElectionCheck implements Runnable {

	private static final Log logger = LogFactory.getLog(ElectionCheck.class);

	private final String group;

	private final String participantId;

	private final ElectionNodes nodes;

	private final ElectionState state;

	private final ElectionThread thread;

	private final LeadershipConfirmation confirmation;

	private final Watcher watcher;

	private volatile CompletableFuture<Void> firstCheck = CompletableFuture.completedFuture(null);

	ElectionCheck(String group, String participantId, ElectionNodes nodes, ElectionState state, ElectionThread thread,
			LeadershipConfirmation confirmation, Watcher watcher) {
		this.group = group;
		this.participantId = participantId;
		this.nodes = nodes;
		this.state = state;
		this.thread = thread;
		this.confirmation = confirmation;
		this.watcher = watcher;
	}

	/**
	 * Return a future completed when the next check has ended, whatever its outcome.
	 */
	CompletableFuture<Void> awaitFirst() {
		this.firstCheck = new CompletableFuture<>();
		return this.firstCheck;
	}

	/**
	 * Return the future of the first check since the last {@link #awaitFirst()}.
	 */
	CompletableFuture<Void> firstCheck() {
		return this.firstCheck;
	}

	/**
	 * Find our place in the election, and take the leadership or watch our predecessor. Runs on
	 * the election thread only.
	 */
	@Override
	public void run() {
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

	/**
	 * Delete our node and every abandoned one, as the election is left. Runs on the election
	 * thread only.
	 */
	void deleteNodes() {
		for (String path : this.state.releaseNodes()) {
			try {
				this.nodes.deleteGuaranteed(path);
			}
			catch (Exception ex) {
				logger.warn("Could not delete election node " + path + " yet; deleting it in the background", ex);
			}
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
				this.confirmation.confirmed(looked);
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

}
