package dev.zklock.leader;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

import dev.zklock.zookeeper.ZooKeeperPort;
import dev.zklock.zookeeper.ZooKeeperPort.Children;
import dev.zklock.zookeeper.ZooKeeperPort.Created;

/**
 * The looks at ZooKeeper of one group's election, one at a time, each a chain of requests sent
 * through the port and continued in their replies: delete the nodes we abandoned, make sure we
 * have a node (looking first for those of creates whose outcome is unknown), then take the
 * leadership if ours is the lowest or watch the node just before ours.
 * <p>
 * A look belongs to the generation of {@link ElectionState} it began in: it stops at the first
 * reply that comes after an event of another generation, and only a look of the current
 * generation grants. Every event that needs a new look asks for one ({@link #request()}); one
 * asked for while a look runs starts when it ends.
 */
final class ElectionCheck {

	private static final Log logger = LogFactory.getLog(ElectionCheck.class);

	private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final long SEARCH_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private static final int SEARCH_ATTEMPTS = 600;

	private final String group;

	private final byte[] participantData;

	private final ElectionNodes nodes;

	private final ElectionState state;

	private final LeadershipConfirmation confirmation;

	private final ZooKeeperPort port;

	private final Set<String> watched = ConcurrentHashMap.newKeySet();

	private final Object monitor = new Object();

	private boolean looking;

	private boolean again;

	private volatile CompletableFuture<Void> firstCheck = CompletableFuture.completedFuture(null);

	ElectionCheck(String group, String participantId, ElectionNodes nodes, ElectionState state,
			LeadershipConfirmation confirmation) {
		this.group = group;
		this.participantData = participantId.getBytes(StandardCharsets.UTF_8);
		this.nodes = nodes;
		this.state = state;
		this.confirmation = confirmation;
		this.port = nodes.port();
	}

	/**
	 * Return a future completed when the next look has ended, whatever its outcome.
	 */
	CompletableFuture<Void> awaitFirst() {
		this.firstCheck = new CompletableFuture<>();
		return this.firstCheck;
	}

	/**
	 * Return the future of the first look since the last {@link #awaitFirst()}.
	 */
	CompletableFuture<Void> firstCheck() {
		return this.firstCheck;
	}

	/**
	 * Look at the election now, or as soon as the look in progress ends.
	 */
	void request() {
		synchronized (this.monitor) {
			if (this.looking) {
				this.again = true;
				return;
			}
			this.looking = true;
			this.again = false;
		}
		begin();
	}

	/**
	 * Remove the watches the looks left, once the election is left.
	 */
	void removeWatches() {
		for (String path : List.copyOf(this.watched)) {
			this.watched.remove(path);
			this.port.removeWatches(path);
		}
	}

	private void begin() {
		long generation = this.state.beginCheck();
		if (generation < 0) {
			end(false);
			return;
		}
		Look look = new Look(generation, this.port.nanoTime());
		deleteAbandoned();
		String node = this.state.node();
		if (node != null) {
			lookAtOwn(look, node);
		}
		else if (this.state.hasUnresolvedCreates()) {
			readChildren(look, null, 0);
		}
		else {
			create(look);
		}
	}

	private void deleteAbandoned() {
		for (String path : this.state.abandonedNodes()) {
			this.port.delete(path, (code, value) -> {
				if (code == Code.OK || code == Code.NONODE) {
					this.state.deleted(path);
				}
			});
		}
	}

	private void create(Look look) {
		String id = this.port.newProtectedId();
		if (!this.state.createSent(id)) {
			end(false);
			return;
		}
		this.port.createSequentialNode(this.nodes.nodePath(id), this.participantData, (code, created) -> {
			String path = (code == Code.OK && created != null) ? created.path() : null;
			if (path != null && ElectionNodes.isPastEnd(ElectionNodes.name(path))) {
				pastTheEnd(path);
				path = null;
			}
			ElectionNodeSet.CreateAnswer answer = this.state.createAnswered(id, path);
			if (path != null && (answer == ElectionNodeSet.CreateAnswer.DELETE
					|| answer == ElectionNodeSet.CreateAnswer.SEARCH)) {
				this.port.delete(path, null);
			}
			if (answer == ElectionNodeSet.CreateAnswer.SEARCH) {
				// Left while the create was in flight: whatever else it made goes too.
				deleteNodesOf(List.of(id));
			}
			if (isStale(look)) {
				return;
			}
			if (answer == ElectionNodeSet.CreateAnswer.ADOPTED && path != null) {
				lookAtOwn(look, path);
			}
			else if (path == null) {
				// Its outcome may be unknown: the next read of the children looks for its node.
				retry("create its node", code);
			}
			else {
				lookAgain();
			}
		});
	}

	private void pastTheEnd(String path) {
		this.port.delete(path, null);
		this.port.delete(this.nodes.groupPath(), null);
		logger.error("Election group node " + this.nodes.groupPath()
				+ " has used up its sequence numbers (its cversion reached " + Integer.MAX_VALUE
				+ "): this instance joins once the group node is created again, when no participant is left");
	}

	/**
	 * Look for the nodes of creates by their ids, with a read sent now (after their replies),
	 * and delete them.
	 * @return a future completed when the server has answered the deletions
	 */
	CompletableFuture<Void> deleteNodesOf(List<String> createIds) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		search(createIds, SEARCH_ATTEMPTS, done);
		return done;
	}

	/**
	 * Read the children until a read succeeds or the group node is gone (at most the given
	 * number of tries, a little apart), deleting what the creates made.
	 */
	private void search(List<String> createIds, int attempts, CompletableFuture<Void> done) {
		this.port.getChildren(this.nodes.groupPath(), null, (code, children) -> {
			if (code != Code.OK && code != Code.NONODE && attempts > 1) {
				this.port.schedule(() -> search(createIds, attempts - 1, done), SEARCH_RETRY_NANOS);
				return;
			}
			List<CompletableFuture<Void>> deletions = new java.util.ArrayList<>();
			if (code == Code.OK && children != null) {
				for (String id : createIds) {
					for (String child : children.names()) {
						if (child.startsWith(ElectionNodes.protectedPrefix(id))) {
							deletions.add(delete(this.nodes.path(child)));
						}
					}
				}
			}
			CompletableFuture.allOf(deletions.toArray(CompletableFuture[]::new)).thenRun(() -> done.complete(null));
		});
	}

	/**
	 * Delete a node of ours.
	 * @return a future completed when the server has answered
	 */
	CompletableFuture<Void> delete(String path) {
		CompletableFuture<Void> deleted = new CompletableFuture<>();
		this.port.delete(path, (code, value) -> deleted.complete(null));
		return deleted;
	}

	private void lookAtOwn(Look look, String path) {
		this.watched.add(path);
		this.port.exists(path, () -> ownNodeChanged(path), (code, stat) -> {
			if (isStale(look)) {
				return;
			}
			if (code == Code.NONODE || (code == Code.OK && stat != null && stat.ephemeralOwner() != this.port.sessionId())) {
				this.state.nodeGone(path);
				lookAgain();
				return;
			}
			if (code != Code.OK || stat == null) {
				retry("read its node", code);
				return;
			}
			readChildren(look, path, stat.czxid());
		});
	}

	/**
	 * Read the group's children: look for the nodes of creates whose outcome is unknown, then,
	 * with a node of ours, lead or watch the node before ours.
	 * @param own our node, or {@code null} when only the creates are looked for
	 */
	private void readChildren(Look look, @Nullable String own, long czxid) {
		long readAt = this.state.readSent();
		this.port.getChildren(this.nodes.groupPath(), null, (code, children) -> {
			if (code == Code.NONODE) {
				this.state.resolveCreates(readAt, this.nodes.groupPath(), List.of());
			}
			boolean adopted = (code == Code.OK && children != null)
					&& this.state.resolveCreates(readAt, this.nodes.groupPath(), children.names());
			if (isStale(look)) {
				return;
			}
			if (code == Code.NONODE) {
				lookAgain();
				return;
			}
			if (code != Code.OK || children == null) {
				retry("read the participants", code);
				return;
			}
			if (adopted || own == null) {
				lookAgain(); // A node of ours was found, or none: look at it, or create one.
				return;
			}
			deleteAbandoned();
			placed(look, own, czxid, children);
		});
	}

	private void placed(Look look, String own, long czxid, Children children) {
		List<String> order = ElectionNodes.inElectionOrder(children.names());
		int index = order.indexOf(ElectionNodes.name(own));
		if (index < 0) {
			lookAgain(); // Our node went in the meantime.
			return;
		}
		if (index == 0) {
			if (this.confirmation.mayHavePausedSince(look.startedAt)) {
				// The process may have been frozen since the look began, its replies read late:
				// the session may have ended meanwhile, and another participant led.
				lookAgain();
				return;
			}
			if (this.state.grant(look.generation, own, czxid, this.port.isConnected())) {
				this.confirmation.confirmed(look.startedAt);
				end(false);
			}
			else {
				lookAgain(); // Something changed while we looked.
			}
			return;
		}
		String predecessor = this.nodes.path(order.get(index - 1));
		this.watched.add(predecessor);
		this.port.exists(predecessor, this::request, (code, stat) -> {
			if (isStale(look)) {
				return;
			}
			if (code == Code.NONODE) {
				lookAgain(); // Our predecessor went in the meantime.
			}
			else if (code != Code.OK) {
				retry("watch the participant before it", code);
			}
			else {
				end(false);
			}
		});
	}

	private void ownNodeChanged(String path) {
		this.state.ownNodeChanged(path);
		request();
	}

	/**
	 * End a look whose generation passed: the event that passed it asked for a new look if one
	 * is needed.
	 */
	private boolean isStale(Look look) {
		if (this.state.isCurrent(look.generation)) {
			return false;
		}
		if (!this.state.isRunning()) {
			removeWatches();
		}
		end(false);
		return true;
	}

	private void lookAgain() {
		synchronized (this.monitor) {
			this.again = true;
		}
		end(false);
	}

	private void retry(String what, Code code) {
		if (this.state.isRunning()) {
			logger.warn("Could not " + what + " in the election of group '" + this.group + "' (" + code
					+ "); trying again");
		}
		end(true);
	}

	private void end(boolean retryLater) {
		this.firstCheck.complete(null);
		boolean next;
		synchronized (this.monitor) {
			next = this.again;
			this.again = false;
			this.looking = next;
		}
		if (next) {
			begin();
		}
		else if (retryLater && this.state.isRunning()) {
			this.port.schedule(this::request, RETRY_NANOS);
		}
	}

	private record Look(long generation, long startedAt) {
	}

}
