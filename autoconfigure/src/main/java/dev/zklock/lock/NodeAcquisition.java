package dev.zklock.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.CuratorEventType;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.api.transaction.OperationType;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;

/**
 * Obtains one lock node for a key, without blocking any thread: the create and the children
 * read are sent back to back (one round trip), a missing key node is created together with our
 * node in one transaction (no read needed), and a node that must wait watches only the node it
 * waits for. Every step is a background request whose reply moves the acquisition on; a step that
 * fails for the connection stalls it until {@link #resume()} after a reconnect. See
 * {@code docs/lock-core.md}.
 */
final class NodeAcquisition {

	private static final Log logger = LogFactory.getLog(NodeAcquisition.class);

	private static final byte[] NO_DATA = new byte[0];

	/**
	 * Told how the acquisition ends. Called on a ZooKeeper event thread, outside any lock of the
	 * acquisition; must be quick.
	 */
	interface Outcome {

		/**
		 * Our node holds the key.
		 * @param node the node, with the fencing token of its first grant
		 */
		void granted(LockNode node);

		/**
		 * Our node exists but waits for another node: the key is held or queued for by others.
		 */
		default void mustWait() {
		}

	}

	private enum Phase {

		CREATING, TRANSACTION, READING, WATCHING, STALLED, GRANTED, ABANDONED

	}

	private final CuratorFramework client;

	private final String keyPath;

	private final LockMode mode;

	private final Outcome outcome;

	private final KeyNodes keyNodes;

	private final Stalls stalls;

	private final ReentrantLock lock = new ReentrantLock();

	private Phase phase = Phase.CREATING;

	private int generation;

	private @Nullable String ourPath;

	private long sessionId;

	private @Nullable String transactionId;

	private long requestSession;

	private @Nullable String abandonedId;

	private final List<Runnable> pending = new ArrayList<>(1);

	private @Nullable ChildrenRead earlyRead;

	private boolean toldMustWait;

	NodeAcquisition(CuratorFramework client, String keyPath, LockMode mode, KeyNodes keyNodes, Stalls stalls,
			Outcome outcome) {
		this.client = client;
		this.keyPath = keyPath;
		this.mode = mode;
		this.keyNodes = keyNodes;
		this.stalls = stalls;
		this.outcome = outcome;
	}

	LockMode mode() {
		return this.mode;
	}

	String keyPath() {
		return this.keyPath;
	}

	/**
	 * Send the first requests.
	 */
	void start() {
		this.stalls.started(this);
		locked(this::restart);
	}

	/**
	 * The node is no longer wanted: delete it if it exists, or as soon as a create in flight
	 * reports it.
	 */
	void abandon() {
		String[] path = new String[1];
		locked(() -> {
			if (this.phase != Phase.ABANDONED) {
				this.phase = Phase.ABANDONED;
				this.generation++;
				path[0] = this.ourPath;
			}
		});
		this.stalls.ended(this);
		if (path[0] != null) {
			LockNodes.delete(this.client, path[0], null);
		}
	}

	/**
	 * Go on after the connection came back, or after a step failed: find out what became of
	 * the step in progress. A node of a session that ended is gone, and its watch with it: ask
	 * again with the current session. A waiting node of the current session reads the children
	 * again, in case an event was missed while disconnected.
	 */
	void recheck() {
		locked(() -> {
			long current = LockNodes.sessionId(this.client);
			switch (this.phase) {
				case STALLED -> {
					if (this.ourPath != null && current == this.sessionId) {
						this.generation++;
						read();
					}
					else if (this.transactionId != null && this.ourPath == null && current == this.requestSession) {
						this.generation++;
						findTransactionNode();
					}
					else {
						restart();
					}
				}
				case WATCHING, READING -> {
					if (this.ourPath != null && current != this.sessionId) {
						restart();
					}
					else if (this.phase == Phase.WATCHING) {
						this.generation++;
						read();
					}
				}
				case CREATING, TRANSACTION -> {
					if (current != this.requestSession) {
						restart();
					}
				}
				default -> {
				}
			}
		});
	}

	// Everything below runs with the lock held.

	private void restart() {
		this.generation++;
		this.requestSession = LockNodes.sessionId(this.client);
		this.ourPath = null;
		this.earlyRead = null;
		this.transactionId = null;
		this.abandonedId = null;
		if (this.keyNodes.isKnown(this.keyPath)) {
			createAndRead();
		}
		else {
			createWithKeyNode();
		}
	}

	private void createAndRead() {
		if (this.transactionId != null) {
			this.abandonedId = this.transactionId;
			this.transactionId = null;
		}
		this.phase = Phase.CREATING;
		int gen = this.generation;
		try {
			this.client.create()
				.withProtection()
				.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.inBackground(callback(gen, this::created))
				.forPath(ZKPaths.makePath(this.keyPath, LockNodes.marker(this.mode)), NO_DATA);
			this.client.getChildren().inBackground(callback(gen, this::childrenRead)).forPath(this.keyPath);
		}
		catch (Exception ex) {
			stall(ex);
		}
	}

	private void createWithKeyNode() {
		this.phase = Phase.TRANSACTION;
		String id = LockNodes.newProtectedId();
		this.transactionId = id;
		int gen = this.generation;
		String name = LockNodes.protectedName(id, this.mode);
		try {
			this.client.transaction()
				.inBackground(callback(gen, this::transactionDone))
				.forOperations(this.client.transactionOp().create().withMode(CreateMode.CONTAINER).forPath(this.keyPath),
						this.client.transactionOp()
							.create()
							.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
							.forPath(ZKPaths.makePath(this.keyPath, name), NO_DATA),
						this.client.transactionOp().setData().forPath(this.keyPath, NO_DATA));
		}
		catch (Exception ex) {
			stall(ex);
		}
	}

	private void created(CuratorEvent event) {
		int rc = event.getResultCode();
		if (rc == Code.NONODE.intValue()) {
			this.keyNodes.forget(this.keyPath);
			this.generation++;
			createWithKeyNode();
			return;
		}
		if (rc != Code.OK.intValue()) {
			stall(rc);
			return;
		}
		this.ourPath = event.getName();
		this.sessionId = (event.getStat() != null) ? event.getStat().getEphemeralOwner() : LockNodes.sessionId(this.client);
		this.phase = Phase.READING;
		ChildrenRead early = this.earlyRead;
		this.earlyRead = null;
		if (early != null) {
			evaluate(early);
		}
	}

	private void childrenRead(CuratorEvent event) {
		int rc = event.getResultCode();
		if (rc == Code.NONODE.intValue() && this.phase == Phase.CREATING) {
			return; // the create fails too, and says what to do
		}
		if (rc != Code.OK.intValue()) {
			stall(rc);
			return;
		}
		ChildrenRead read = new ChildrenRead(event.getChildren(), event.getStat().getPzxid());
		if (this.phase == Phase.CREATING) {
			this.earlyRead = read;
			return;
		}
		evaluate(read);
	}

	private void transactionDone(CuratorEvent event) {
		int rc = event.getResultCode();
		if (rc == Code.NODEEXISTS.intValue()) {
			// Another instance created the key node first (or an earlier try of ours succeeded
			// before its reply was lost: evaluate() then finds that node by its id and removes it).
			this.keyNodes.remember(this.keyPath);
			this.generation++;
			createAndRead();
			return;
		}
		if (rc == Code.NONODE.intValue()) {
			createBasePathThenRetry();
			return;
		}
		if (rc != Code.OK.intValue()) {
			stall(rc);
			return;
		}
		String path = null;
		long token = 0;
		for (CuratorTransactionResult result : event.getOpResults()) {
			if (result.getType() == OperationType.CREATE && !this.keyPath.equals(result.getForPath())) {
				path = result.getResultPath();
			}
			else if (result.getType() == OperationType.SET_DATA && result.getResultStat() != null) {
				token = result.getResultStat().getMzxid();
			}
		}
		this.keyNodes.remember(this.keyPath);
		if (path == null || token == 0) {
			logger.warn("Unexpected transaction result for " + this.keyPath + "; reading the key's nodes");
			this.ourPath = path;
			this.sessionId = LockNodes.sessionId(this.client);
			read();
			return;
		}
		this.ourPath = path;
		this.sessionId = LockNodes.sessionId(this.client);
		grant(token);
	}

	private void findTransactionNode() {
		this.phase = Phase.READING;
		int gen = this.generation;
		try {
			this.client.getChildren().inBackground(callback(gen, (event) -> {
				if (event.getResultCode() == Code.NONODE.intValue()) {
					restart();
					return;
				}
				if (event.getResultCode() != Code.OK.intValue()) {
					stall(event.getResultCode());
					return;
				}
				String prefix = LockNodes.protectedPrefix(this.transactionId);
				for (String child : event.getChildren()) {
					if (child.startsWith(prefix)) {
						this.ourPath = ZKPaths.makePath(this.keyPath, child);
						this.sessionId = LockNodes.sessionId(this.client);
						this.transactionId = null;
						evaluate(new ChildrenRead(event.getChildren(), event.getStat().getPzxid()));
						return;
					}
				}
				this.transactionId = null;
				this.generation++;
				createAndRead();
			})).forPath(this.keyPath);
		}
		catch (Exception ex) {
			stall(ex);
		}
	}

	private void createBasePathThenRetry() {
		int gen = this.generation;
		String basePath = ZKPaths.getPathAndNode(this.keyPath).getPath();
		try {
			this.client.create()
				.creatingParentContainersIfNeeded()
				.withMode(CreateMode.CONTAINER)
				.inBackground(callback(gen, (event) -> {
					int rc = event.getResultCode();
					if (rc == Code.OK.intValue() || rc == Code.NODEEXISTS.intValue()) {
						this.generation++;
						createWithKeyNode();
					}
					else {
						stall(rc);
					}
				}))
				.forPath(basePath);
		}
		catch (Exception ex) {
			stall(ex);
		}
	}

	private void read() {
		this.phase = Phase.READING;
		int gen = this.generation;
		try {
			this.client.getChildren().inBackground(callback(gen, this::childrenRead)).forPath(this.keyPath);
		}
		catch (Exception ex) {
			stall(ex);
		}
	}

	private void evaluate(ChildrenRead read) {
		removeAbandonedTransactionNode(read.children());
		String ourName = ZKPaths.getNodeFromPath(this.ourPath);
		List<String> children = LockNodes.sorted(read.children());
		int ours = children.indexOf(ourName);
		if (ours < 0) {
			checkOurNodeThenRead();
			return;
		}
		String predecessor = LockNodes.predecessor(children, ours, this.mode);
		if (predecessor == null) {
			grant(read.pzxid());
			return;
		}
		if (!this.toldMustWait) {
			this.toldMustWait = true;
			deliver(this.outcome::mustWait);
		}
		watch(ZKPaths.makePath(this.keyPath, predecessor));
	}

	private void removeAbandonedTransactionNode(List<String> children) {
		if (this.abandonedId == null) {
			return;
		}
		String prefix = LockNodes.protectedPrefix(this.abandonedId);
		for (String child : children) {
			if (child.startsWith(prefix)) {
				LockNodes.delete(this.client, ZKPaths.makePath(this.keyPath, child), null);
			}
		}
		this.abandonedId = null;
	}

	private void checkOurNodeThenRead() {
		int gen = this.generation;
		try {
			this.client.checkExists().inBackground(callback(gen, (event) -> {
				if (event.getResultCode() == Code.NONODE.intValue()) {
					logger.debug("Lock node " + this.ourPath + " vanished with its session; requesting the lock again");
					restart();
				}
				else if (event.getResultCode() == Code.OK.intValue()) {
					read();
				}
				else {
					stall(event.getResultCode());
				}
			})).forPath(this.ourPath);
		}
		catch (Exception ex) {
			stall(ex);
		}
	}

	private void watch(String predecessor) {
		this.phase = Phase.WATCHING;
		int gen = this.generation;
		Watcher watcher = (event) -> {
			if (event.getType() != Watcher.Event.EventType.None) {
				onEvent(gen, this::read);
			}
		};
		try {
			this.client.checkExists().usingWatcher(watcher).inBackground(callback(gen, (event) -> {
				if (event.getResultCode() == Code.NONODE.intValue()) {
					read();
				}
				else if (event.getResultCode() != Code.OK.intValue()) {
					stall(event.getResultCode());
				}
			})).forPath(predecessor);
		}
		catch (Exception ex) {
			stall(ex);
		}
	}

	private void grant(long token) {
		this.phase = Phase.GRANTED;
		this.stalls.ended(this);
		LockNode node = new LockNode(this.ourPath, this.sessionId, this.mode, token);
		deliver(() -> this.outcome.granted(node));
	}

	private void stall(int rc) {
		stall(new IllegalStateException(Code.get(rc).name()));
	}

	private void stall(Exception ex) {
		if (this.phase == Phase.ABANDONED) {
			return;
		}
		logger.debug("Lock request on " + this.keyPath + " waits for the connection: " + ex);
		this.phase = Phase.STALLED;
		this.stalls.stalled(this);
	}

	/**
	 * Tell the outcome once the outermost hold of the lock is released, so that the outcome
	 * never runs under this acquisition's lock (the key's own lock is taken first, elsewhere).
	 */
	private void deliver(Runnable action) {
		this.pending.add(action);
	}

	private void locked(Runnable action) {
		this.lock.lock();
		List<Runnable> ready = List.of();
		try {
			action.run();
		}
		finally {
			if (this.lock.getHoldCount() == 1 && !this.pending.isEmpty()) {
				ready = new ArrayList<>(this.pending);
				this.pending.clear();
			}
			this.lock.unlock();
		}
		ready.forEach(Runnable::run);
	}

	private BackgroundCallback callback(int gen, Step step) {
		return (client, event) -> {
			if ((event.getType() == CuratorEventType.CREATE || event.getType() == CuratorEventType.TRANSACTION)
					&& event.getResultCode() == Code.OK.intValue()) {
				onCreated(gen, event, step);
				return;
			}
			onEvent(gen, () -> step.handle(event));
		};
	}

	private void onCreated(int gen, CuratorEvent event, Step step) {
		boolean[] stale = new boolean[1];
		locked(() -> {
			stale[0] = (gen != this.generation || this.phase == Phase.ABANDONED);
			if (!stale[0]) {
				step.handle(event);
			}
		});
		if (stale[0]) {
			// A node nobody waits for any more (abandoned, or a try we moved past): remove it.
			String created = createdLockNode(event);
			if (created != null) {
				LockNodes.delete(this.client, created, null);
			}
		}
	}

	private @Nullable String createdLockNode(CuratorEvent event) {
		if (event.getType() == CuratorEventType.CREATE) {
			return event.getName();
		}
		for (CuratorTransactionResult result : event.getOpResults()) {
			if (result.getType() == OperationType.CREATE && !this.keyPath.equals(result.getForPath())) {
				return result.getResultPath();
			}
		}
		return null;
	}

	private void onEvent(int gen, Runnable action) {
		locked(() -> {
			if (gen != this.generation || this.phase == Phase.ABANDONED) {
				return;
			}
			try {
				action.run();
			}
			catch (RuntimeException ex) {
				logger.warn("Lock request on " + this.keyPath + " failed; trying again", ex);
				stall(ex);
			}
		});
	}

	@FunctionalInterface
	private interface Step {

		void handle(CuratorEvent event);

	}

	private record ChildrenRead(List<String> children, long pzxid) {
	}

}
