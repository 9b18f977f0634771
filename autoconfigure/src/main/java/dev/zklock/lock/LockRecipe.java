package dev.zklock.lock;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;
import dev.zklock.ZkLockException;
import dev.zklock.zookeeper.ZooKeeperPort;
import dev.zklock.zookeeper.ZooKeeperPort.Children;

/**
 * One lock node per call (the recipe when local handoff is off): the calling thread waits for a
 * {@link NodeAcquisition} of its own, holds the node for the call and deletes it at the end.
 */
final class LockRecipe {

	private static final Log logger = LogFactory.getLog(LockRecipe.class);

	/**
	 * How long a release waits for the server to delete the node it gave up.
	 */
	static final long RELEASE_WAIT_MILLIS = 2000;

	private final ZooKeeperPort port;

	private final KeyNodes keyNodes;

	private final Stalls stalls;

	private final NodeOwners owners;

	private final LockNodeNames names;

	/**
	 * The requests of the calls that wait now, so that an operator's release of a waiting node
	 * reaches its request.
	 */
	private final Set<NodeAcquisition> waiting = ConcurrentHashMap.newKeySet();

	LockRecipe(ZooKeeperPort port, KeyNodes keyNodes, Stalls stalls, NodeOwners owners, LockNodeNames names) {
		this.port = port;
		this.names = names;
		this.keyNodes = keyNodes;
		this.stalls = stalls;
		this.owners = owners;
	}

	/**
	 * Return the data of the waiting call's node.
	 */
	byte[] data(Waiter waiter) {
		return this.owners.data(waiter.call(), waiter.mode(), waiter.since());
	}

	/**
	 * Wait for the lock.
	 * @param keyPath the key's node
	 * @param waiter the waiting call
	 * @param deadline when to give up
	 * @return our node once it holds the lock, or {@code null} when the deadline passed first;
	 * no node of ours is left behind then
	 * @throws ZkLockException when ZooKeeper is unreachable or fails
	 * @throws InterruptedException when the thread is interrupted; no node is left behind
	 */
	@Nullable LockNode acquire(String keyPath, Waiter waiter, Deadline deadline) throws InterruptedException {
		ensureConnected(waiter.key(), deadline);
		if (deadline.isNoWait() && visiblyHeld(keyPath, waiter, deadline)) {
			return null;
		}
		CompletableFuture<@Nullable LockNode> result = new CompletableFuture<>();
		AtomicBoolean waitsForOthers = new AtomicBoolean();
		NodeAcquisition acquisition = new NodeAcquisition(this.port, keyPath, waiter.mode(), this.names, this.keyNodes,
				this.stalls, new NodeAcquisition.Outcome() {

					@Override
					public void granted(LockNode node) {
						if (!result.complete(node)) {
							release(node, false);
						}
					}

					@Override
					public void mustWait() {
						waitsForOthers.set(true);
						if (deadline.isNoWait()) {
							result.complete(null);
						}
					}

				});
		this.waiting.add(acquisition);
		acquisition.ownedBy(data(waiter)).start();
		boolean done = false;
		try {
			LockNode node = await(result, deadline, waitsForOthers);
			if (node == null) {
				giveUp(acquisition, result);
			}
			done = true;
			return node;
		}
		catch (TimeoutException ex) {
			giveUp(acquisition, result);
			done = true;
			if (!isConnected()) {
				throw unreachable(waiter.key(), deadline);
			}
			return null;
		}
		finally {
			this.waiting.remove(acquisition);
			if (!done) {
				giveUp(acquisition, result);
			}
		}
	}

	/**
	 * Return the nodes the calls that wait now wait with.
	 */
	List<String> waitingNodes() {
		List<String> nodes = new ArrayList<>();
		for (NodeAcquisition acquisition : this.waiting) {
			String node = acquisition.waitingNode();
			if (node != null) {
				nodes.add(node);
			}
		}
		return nodes;
	}

	/**
	 * Apply an operator's release of lock nodes to the calls that wait: a call whose waiting
	 * node is one of them asks for a new node at once (a node already granted is the holder's,
	 * and lost as any held node).
	 * @param paths the released nodes' full paths
	 */
	void released(Collection<String> paths) {
		for (NodeAcquisition acquisition : this.waiting) {
			acquisition.released(paths);
		}
	}

	/**
	 * Release a held lock: delete the node and, if asked and connected, wait for the server to
	 * confirm (at most {@link #RELEASE_WAIT_MILLIS}), so that when a call returns its lock is free
	 * for every other session.
	 */
	void release(LockNode node, boolean awaitServer) {
		CompletableFuture<@Nullable Void> deleted = new CompletableFuture<>();
		this.port.delete(node.path(), (rc, nothing) -> deleted.complete(null));
		if (!awaitServer || !isConnected()) {
			return;
		}
		try {
			this.port.await(deleted, TimeUnit.MILLISECONDS.toNanos(RELEASE_WAIT_MILLIS));
		}
		catch (TimeoutException ex) {
			logger.debug("Lock node " + node.path() + " not deleted yet; deletion goes on in the background");
		}
		catch (ExecutionException ex) {
			// Completed with a value only.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private @Nullable LockNode await(CompletableFuture<@Nullable LockNode> result, Deadline deadline,
			AtomicBoolean waitsForOthers) throws InterruptedException, TimeoutException {
		try {
			return Deadline.await(this.port, result, deadline, waitsForOthers::get);
		}
		catch (ExecutionException ex) {
			throw new ZkLockException("Could not obtain the lock: " + ex.getCause(), ex.getCause());
		}
	}

	/**
	 * The caller no longer waits: stop the acquisition and delete what it created, including a
	 * node granted at the last moment.
	 */
	private void giveUp(NodeAcquisition acquisition, CompletableFuture<@Nullable LockNode> result) {
		acquisition.abandon();
		if (!result.complete(null)) {
			LockNode node = result.getNow(null);
			if (node != null) {
				release(node, false);
			}
		}
	}

	/**
	 * Return whether a request that will not wait would be refused anyway: someone holds or
	 * queues for the lock in a way that excludes the mode. One read instead of a create and a
	 * delete, for the common "skip if another instance holds it" call.
	 */
	boolean visiblyHeld(String keyPath, Waiter waiter, Deadline deadline) throws InterruptedException {
		CompletableFuture<Children> read = new CompletableFuture<>();
		this.port.getChildren(keyPath, null, (rc, children) -> {
			if (rc == Code.OK && children != null) {
				read.complete(children);
			}
			else if (rc == Code.NONODE) {
				read.complete(new Children(List.of(), 0));
			}
			else {
				read.completeExceptionally(new ZkLockException("Could not obtain the lock on key '" + waiter.key()
						+ "': " + rc));
			}
		});
		List<String> children;
		try {
			long nanos = deadline.requestNanos();
			children = this.port.await(read, Math.max(0, nanos)).names();
		}
		catch (TimeoutException ex) {
			throw unreachable(waiter.key(), deadline);
		}
		catch (ExecutionException ex) {
			if (!isConnected()) {
				throw unreachable(waiter.key(), deadline);
			}
			throw (ZkLockException) ex.getCause();
		}
		for (String child : children) {
			if (LockNodes.isExclusive(child) || (waiter.mode() == LockMode.EXCLUSIVE && LockNodes.isLockNode(child))) {
				return true;
			}
		}
		return false;
	}

	boolean isConnected() {
		return this.port.isConnected();
	}

	private void ensureConnected(String key, Deadline deadline) throws InterruptedException {
		if (isConnected()) {
			return;
		}
		boolean connected = this.port.awaitConnected(deadline.isForever() ? -1 : deadline.remainingNanos());
		if (!connected) {
			throw unreachable(key, deadline);
		}
	}

	ZkLockException unreachable(String key, Deadline deadline) {
		return new ZkLockException("ZooKeeper is unreachable at '"
				+ this.port.connectString() + "': could not obtain the lock on key '"
				+ key + "' within its wait time of " + deadline.waitTime().toMillis() + "ms");
	}

}
