package dev.zklock.lock;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;
import dev.zklock.zookeeper.ZooKeeperPort;
import dev.zklock.zookeeper.ZooKeeperPort.Children;
import dev.zklock.zookeeper.ZooKeeperPort.Created;
import dev.zklock.zookeeper.ZooKeeperPort.KeyCreated;
import dev.zklock.zookeeper.ZooKeeperPort.Reply;

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

	private final ZooKeeperPort port;

	private final String keyPath;

	private final LockMode mode;

	private final LockNodeNames names;

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

	private final UnknownTransactions unknown;

	private final List<Runnable> pending = new ArrayList<>(1);

	private @Nullable Children earlyRead;

	private long earlyReadSentAt;

	private boolean earlyReadFailed;

	/**
	 * When the request whose reply is being handled was sent: a grant is confirmed as of then,
	 * not as of its reply, which may have waited out a process pause in a buffer.
	 */
	private long replySentAt;

	private boolean toldMustWait;

	private boolean toldSpent;

	private byte[] data = new byte[0];

	/**
	 * While {@link #start(long)} runs: when its thread stops waiting for the answer, 0 if none
	 * waits.
	 */
	private long answerBy;

	NodeAcquisition(ZooKeeperPort port, String keyPath, LockMode mode, LockNodeNames names, KeyNodes keyNodes,
			Stalls stalls, Outcome outcome) {
		this.port = port;
		this.keyPath = keyPath;
		this.unknown = new UnknownTransactions(port, keyPath);
		this.mode = mode;
		this.names = names;
		this.keyNodes = keyNodes;
		this.stalls = stalls;
		this.outcome = outcome;
	}

	LockMode mode() {
		return this.mode;
	}

	/**
	 * Create the node with the given data ({@link NodeOwner}); set before {@link #start()}.
	 */
	NodeAcquisition ownedBy(byte[] data) {
		this.data = data;
		return this;
	}

	byte[] data() {
		return this.data;
	}

	@Override
	public String toString() {
		return "NodeAcquisition[" + this.phase + ", generation " + this.generation + ", "
				+ ((this.ourPath != null) ? LockNodes.name(this.ourPath) : "no node yet")
				+ ((this.transactionId != null) ? ", transaction " + this.transactionId : "") + "]";
	}

	String keyPath() {
		return this.keyPath;
	}

	/**
	 * Send the first requests.
	 */
	void start() {
		start(0);
	}

	/**
	 * Send the first requests, on a thread that then waits for the outcome.
	 * @param answerBy when the thread stops waiting for ZooKeeper's answer, on the port's clock;
	 * 0 when no thread waits: a first-use transaction is then sent in the background, else it is
	 * sent and answered on this thread ({@link ZooKeeperPort#createKeyAndLockNodeWaiting}), after
	 * this acquisition's lock is released
	 */
	void start(long answerBy) {
		locked(() -> {
			// The key may have abandoned the request before this thread got to start it.
			if (this.phase != Phase.ABANDONED) {
				this.stalls.started(this);
				this.answerBy = answerBy;
				try {
					restart();
				}
				finally {
					this.answerBy = 0;
				}
			}
		});
	}

	/**
	 * The node is no longer wanted: delete it if it exists, or as soon as a create in flight
	 * reports it. A first-use transaction whose reply is still unknown (lost with the
	 * connection, or a node found to exist before its read) may have created a node that we never
	 * learned the name of: it is looked for among the key's children by its protected id.
	 */
	void abandon() {
		String[] path = new String[1];
		locked(() -> {
			if (this.phase != Phase.ABANDONED) {
				this.phase = Phase.ABANDONED;
				this.generation++;
				path[0] = this.ourPath;
				this.unknown.removeInBackground(this.transactionId);
			}
		});
		this.stalls.ended(this);
		if (path[0] != null) {
			this.port.delete(path[0], null);
		}
	}

	/**
	 * An operator released some nodes of this instance: if ours is one of them, it is deleted and
	 * the request starts again with a new node (at the back of the key's queue), without waiting
	 * for the node before it to go. A node already granted is the key's to lose.
	 * @param paths the released nodes' full paths
	 * @return whether our node was one of them
	 */
	boolean released(Collection<String> paths) {
		String[] path = new String[1];
		locked(() -> {
			if (this.phase != Phase.ABANDONED && this.phase != Phase.GRANTED && this.ourPath != null
					&& paths.contains(this.ourPath)) {
				path[0] = this.ourPath;
				restart();
			}
		});
		if (path[0] != null) {
			this.port.delete(path[0], null);
		}
		return path[0] != null;
	}

	/**
	 * Return the node this request waits with, {@code null} if it has none, holds the key, or
	 * was abandoned.
	 */
	@Nullable String waitingNode() {
		String[] path = new String[1];
		locked(() -> {
			if (this.phase != Phase.ABANDONED && this.phase != Phase.GRANTED) {
				path[0] = this.ourPath;
			}
		});
		return path[0];
	}

	/**
	 * Go on after the connection came back, or after a step failed: find out what became of
	 * the step in progress. A node of a session that ended is gone, and its watch with it: ask
	 * again with the current session. A waiting node of the current session reads the children
	 * again, in case an event was missed while disconnected.
	 */
	void recheck() {
		locked(() -> {
			long current = this.port.sessionId();
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
					// A read may have been lost with the connection (Curator gave it up) while
					// the create it was sent with was retried and answered: read again.
					if (this.ourPath != null && current != this.sessionId) {
						restart();
					}
					else if (this.ourPath != null) {
						this.generation++;
						read();
					}
					else if (this.transactionId != null && current == this.requestSession) {
						this.generation++;
						findTransactionNode();
					}
					else {
						restart();
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
		// A transaction sent while disconnected goes out with whichever session the client has
		// when it reconnects: its node may live in the current session even if the request was
		// made in an earlier one. Look for it at the next read whatever the session.
		if (this.transactionId != null) {
			this.unknown.add(this.transactionId);
		}
		this.requestSession = this.port.sessionId();
		this.ourPath = null;
		this.earlyRead = null;
		this.transactionId = null;
		if (this.keyNodes.isKnown(this.keyPath)) {
			createAndRead();
		}
		else {
			createWithKeyNode();
		}
	}

	private void createAndRead() {
		if (this.transactionId != null) {
			this.unknown.add(this.transactionId);
			this.transactionId = null;
		}
		this.phase = Phase.CREATING;
		this.earlyRead = null;
		this.earlyReadFailed = false;
		int gen = this.generation;
		this.port.createLockNode(LockNodes.path(this.keyPath, LockNodes.marker(this.mode, this.names)), this.data,
				createReply(gen, this::created, Created::path, null));
		this.port.getChildren(this.keyPath, null, reply(gen, this::childrenRead));
	}

	private void createWithKeyNode() {
		this.phase = Phase.TRANSACTION;
		String id = this.port.newProtectedId();
		this.transactionId = id;
		int gen = this.generation;
		String name = LockNodes.protectedName(id, this.mode, this.names);
		String lockNodePath = LockNodes.path(this.keyPath, name);
		Reply<KeyCreated> reply = createReply(gen, this::transactionDone, KeyCreated::lockNodePath, id);
		long answerBy = this.answerBy;
		if (answerBy != 0) {
			// The thread that starts the request waits for this answer anyway: it sends the
			// transaction and takes the reply itself, once this lock is released. Whatever
			// happens to the acquisition meanwhile, the reply finds it as a background one would.
			byte[] data = this.data;
			this.pending.add(() -> this.port.createKeyAndLockNodeWaiting(this.keyPath, lockNodePath, data, answerBy,
					reply));
		}
		else {
			this.port.createKeyAndLockNode(this.keyPath, lockNodePath, this.data, reply);
		}
	}

	private void created(Code rc, @Nullable Created created) {
		if (rc == Code.NONODE) {
			this.keyNodes.forget(this.keyPath);
			this.generation++;
			createWithKeyNode();
			return;
		}
		if (rc != Code.OK || created == null) {
			stall(rc);
			return;
		}
		if (LockNodes.isPastEnd(LockNodes.name(created.path()))) {
			keyNodeSpent(created.path());
			return;
		}
		this.ourPath = created.path();
		this.sessionId = (created.owner() != 0) ? created.owner() : this.port.sessionId();
		this.phase = Phase.READING;
		Children early = this.earlyRead;
		this.earlyRead = null;
		if (early != null) {
			this.replySentAt = this.earlyReadSentAt;
			evaluate(early);
		}
		else if (this.earlyReadFailed) {
			read();
		}
	}

	/**
	 * Our node was named past the end of the key node's sequence counter: its name does not
	 * order it, so it must never hold the key. Delete it, then the key node if nothing else is
	 * under it (ZooKeeper refuses to delete a node that has children, so a holder or waiter
	 * keeps it), and try again shortly: once the nodes named before the end are gone, the key
	 * node is created again, its counter at 0.
	 */
	private void keyNodeSpent(String path) {
		if (!this.toldSpent) {
			this.toldSpent = true;
			logger.warn("Key node " + this.keyPath + " has used up its sequence numbers (its cversion reached "
					+ Integer.MAX_VALUE + "); the lock request waits until the nodes under it are gone, "
					+ "then the key node is created again");
		}
		this.port.delete(path, null);
		// A first-use transaction of unknown outcome may have made a node named before the end,
		// which no read of this request will look for: every create now answers past the end
		// before the read sent with it is looked at. That node, of our live session, would keep
		// the key node (and every instance's calls on the key) forever: look for it now.
		this.unknown.removeInBackground(null);
		this.port.delete(this.keyPath, null);
		this.keyNodes.forget(this.keyPath);
		this.generation++;
		stall(new IllegalStateException("Key node " + this.keyPath + " used up its sequence numbers"));
	}

	private void childrenRead(Code rc, @Nullable Children read) {
		if (this.phase == Phase.STALLED) {
			// Sent with a create that failed: the request goes on at its recheck, which reads
			// again once it knows its node.
			return;
		}
		if (rc != Code.OK && this.phase == Phase.CREATING) {
			// Sent with the create, the read failed first. Usually the create fails too and says
			// what to do (NONODE: the key node is missing); but a reconnect can resend the two in
			// the other order, so that the create succeeds after a read that found no key node:
			// read again once the create has answered.
			this.earlyReadFailed = true;
			if (rc != Code.NONODE) {
				stall(rc);
			}
			return;
		}
		if (rc == Code.NONODE && this.ourPath != null) {
			// No key node, so our node is gone too (a container is removed only once it is
			// empty): look at it, and request the lock again. Stalling would read again for as
			// long as the session lives.
			checkOurNodeThenRead();
			return;
		}
		if (rc != Code.OK || read == null) {
			stall(rc);
			return;
		}
		if (this.phase == Phase.CREATING) {
			this.earlyRead = read;
			this.earlyReadSentAt = this.replySentAt;
			return;
		}
		evaluate(read);
	}

	private void transactionDone(Code rc, @Nullable KeyCreated created) {
		if (rc == Code.NODEEXISTS) {
			// Another instance created the key node first (or an earlier try of ours succeeded
			// before its reply was lost: evaluate() then finds that node by its id and removes it).
			this.keyNodes.remember(this.keyPath);
			this.generation++;
			createAndRead();
			return;
		}
		if (rc == Code.NONODE) {
			createBasePathThenRetry();
			return;
		}
		if (rc == Code.OPERATIONTIMEOUT) {
			// Its thread stopped waiting for the reply, and the connection may be fine: a stalled
			// request would wait for the scheduler's next look. Whether the transaction was
			// applied, or will be, a read sent after it tells (a session's requests are served in
			// order).
			this.generation++;
			findTransactionNode();
			return;
		}
		if (rc != Code.OK || created == null) {
			stall(rc);
			return;
		}
		String path = created.lockNodePath().isEmpty() ? null : created.lockNodePath();
		long zxid = created.zxid();
		this.keyNodes.remember(this.keyPath);
		if (path == null || zxid == 0) {
			logger.warn("Unexpected transaction result for " + this.keyPath + "; reading the key's nodes");
			this.ourPath = path;
			this.sessionId = this.port.sessionId();
			read();
			return;
		}
		this.ourPath = path;
		this.sessionId = this.port.sessionId();
		grant(zxid);
	}

	private void findTransactionNode() {
		this.phase = Phase.READING;
		int gen = this.generation;
		this.port.getChildren(this.keyPath, null, reply(gen, (rc, read) -> {
			if (rc == Code.NONODE) {
				restart();
				return;
			}
			if (rc != Code.OK || read == null) {
				stall(rc);
				return;
			}
			String prefix = LockNodes.protectedPrefix(this.transactionId);
			for (String child : read.names()) {
				if (child.startsWith(prefix)) {
					this.ourPath = LockNodes.path(this.keyPath, child);
					this.sessionId = this.port.sessionId();
					this.transactionId = null;
					evaluate(read);
					return;
				}
			}
			this.transactionId = null;
			this.generation++;
			createAndRead();
		}));
	}

	private void createBasePathThenRetry() {
		int gen = this.generation;
		String basePath = LockNodes.parent(this.keyPath);
		this.port.createContainers(basePath, reply(gen, (rc, nothing) -> {
			if (rc == Code.OK || rc == Code.NODEEXISTS) {
				this.generation++;
				createWithKeyNode();
			}
			else {
				stall(rc);
			}
		}));
	}

	private void read() {
		this.phase = Phase.READING;
		int gen = this.generation;
		this.port.getChildren(this.keyPath, null, reply(gen, this::childrenRead));
	}

	private void evaluate(Children read) {
		this.unknown.removeFrom(read.names());
		String ourName = LockNodes.name(this.ourPath);
		List<String> children = LockNodes.sorted(read.names());
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
		watch(LockNodes.path(this.keyPath, predecessor));
	}

	private void checkOurNodeThenRead() {
		int gen = this.generation;
		this.port.exists(this.ourPath, null, reply(gen, (rc, stat) -> {
			if (rc == Code.NONODE) {
				logger.debug("Lock node " + this.ourPath + " vanished with its session; requesting the lock again");
				restart();
			}
			else if (rc == Code.OK) {
				read();
			}
			else {
				stall(rc);
			}
		}));
	}

	private void watch(String predecessor) {
		this.phase = Phase.WATCHING;
		int gen = this.generation;
		this.port.exists(predecessor, () -> onEvent(gen, this::read), reply(gen, (rc, stat) -> {
			if (rc == Code.NONODE) {
				read();
			}
			else if (rc != Code.OK) {
				stall(rc);
			}
		}));
	}

	/**
	 * Grant our node.
	 * @param zxid the zxid of the grant's fencing token: later than every zxid of the tokens
	 * granted on the key before
	 */
	private void grant(long zxid) {
		this.phase = Phase.GRANTED;
		// Replies and watch events still in flight (a watch on the predecessor, a second read
		// after a reconnect) belong to an acquisition that is over: they must not grant again.
		this.generation++;
		this.stalls.ended(this);
		LockNode node = new LockNode(this.ourPath, this.sessionId, this.mode, zxid, this.replySentAt);
		deliver(() -> this.outcome.granted(node));
	}

	private void stall(Code rc) {
		stall(new IllegalStateException(rc.name()));
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
		acquire();
		Runnable ready = null;
		try {
			action.run();
		}
		finally {
			if (this.lock.getHoldCount() == 1 && !this.pending.isEmpty()) {
				ready = Deferred.take(this.pending);
			}
			this.lock.unlock();
		}
		if (ready != null) {
			ready.run();
		}
	}

	/**
	 * Take this request's lock: held for a few steps, never across a ZooKeeper request's answer
	 * (a name of its own, so that BlockHound is told only about this wait).
	 */
	private void acquire() {
		this.lock.lock();
	}

	private <T> Reply<T> reply(int gen, Step<T> step) {
		long sentAt = this.port.nanoTime();
		return (rc, value) -> onEvent(gen, () -> {
			this.replySentAt = sentAt;
			step.handle(rc, value);
		});
	}

	/**
	 * The reply of a create: a node created for a try that is over is deleted at once.
	 */
	private <T> Reply<T> createReply(int gen, Step<T> step, Function<T, String> createdPath,
			@Nullable String transactionId) {
		long sentAt = this.port.nanoTime();
		return (rc, value) -> {
			this.replySentAt = sentAt;
			if (rc != Code.OK || value == null) {
				if (transactionId != null && rc != Code.NONODE) {
					// The outcome of this transaction is unknown: Curator gave it up, or a retry
					// of it found the key node, which an earlier try that was applied (its reply
					// lost) created as well. If the request has moved on, the read that looked for
					// its node may have gone out before that try was applied: look again. (NONODE
					// is certain: no try was applied, or the key node would exist.)
					boolean[] stale = new boolean[1];
					locked(() -> stale[0] = (gen != this.generation || this.phase == Phase.ABANDONED));
					if (stale[0]) {
						this.unknown.searchFor(transactionId);
						return;
					}
				}
				onEvent(gen, () -> step.handle(rc, value));
				return;
			}
			boolean[] stale = new boolean[1];
			locked(() -> {
				stale[0] = (gen != this.generation || this.phase == Phase.ABANDONED);
				if (!stale[0]) {
					step.handle(rc, value);
				}
			});
			if (stale[0]) {
				// A node nobody waits for any more (abandoned, or a try we moved past): remove it.
				String created = createdPath.apply(value);
				if (!created.isEmpty()) {
					this.port.delete(created, null);
				}
			}
		};
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
	private interface Step<T> {

		void handle(Code rc, @Nullable T value);

	}

}
