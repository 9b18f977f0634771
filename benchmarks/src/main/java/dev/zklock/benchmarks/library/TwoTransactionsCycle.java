package dev.zklock.benchmarks.library;

import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;
import dev.zklock.leader.ParticipantIds;
import dev.zklock.lock.NodeOwner;

/**
 * Two transactions a cycle, without a lock around them: the key's container and a node under it
 * created together (as zklock's first use of a key creates them, a node created with its parent
 * being its only child), then both deleted together, every reply handed to the waiting caller by
 * ZooKeeper's event thread. The request shape of an uncontended call whose release takes the key
 * node away with the last lock node, so that the next call is a first use again. It excludes
 * nobody: a yardstick, not a lock.
 * <p>
 * The transactions are sent in one of three ways ({@link Sending}): as Curator's background
 * transactions, as asynchronous transactions of the client's ZooKeeper handle (without Curator's
 * builders, path checks and retries; the reply still comes through the event thread), or as
 * synchronous transactions of the handle, the caller waking on the reply itself as the floor
 * does. The lock node is a bare one, the one zklock makes, or zklock's with part of it left
 * out ({@link Node}).
 */
final class TwoTransactionsCycle implements ExclusiveLocks {

	private static final byte[] NO_DATA = new byte[0];

	private final CuratorFramework client;

	private final String basePath;

	private final Sending sending;

	private final Node node;

	/** The participant id of the owner data; {@code null} for a node without it. */
	private final @Nullable String participant;

	private volatile boolean baseMade;

	TwoTransactionsCycle(CuratorFramework client, String basePath, Sending sending, Node node) {
		this.client = client;
		this.basePath = basePath;
		this.sending = sending;
		this.node = node;
		this.participant = node.ownerData() ? ParticipantIds.unnumbered("application") : null;
	}

	@Override
	public void runExclusive(String key, Runnable work) throws Exception {
		if (!this.baseMade) {
			this.client.createContainers(this.basePath);
			this.baseMade = true;
		}
		String keyPath = ZKPaths.makePath(this.basePath, key);
		try {
			run(keyPath, work);
		}
		catch (KeeperException.NoNodeException ex) {
			// The base path is a container too: the server reaps it when the cycles leave it
			// empty. Make it again, as zklock does, and run the cycle.
			this.client.createContainers(this.basePath);
			run(keyPath, work);
		}
	}

	private void run(String keyPath, Runnable work) throws Exception {
		String participant = this.participant;
		String lockNodePath = ZKPaths.makePath(keyPath, this.node.newName());
		byte[] data = (participant != null)
				? new NodeOwner(participant, null, LockMode.EXCLUSIVE, Instant.now()).toBytes() : NO_DATA;
		if (this.sending != Sending.CURATOR) {
			runOnHandle(keyPath, lockNodePath, data, work);
			return;
		}
		List<CuratorTransactionResult> created = commit(
				this.client.transactionOp().create().withMode(CreateMode.CONTAINER).forPath(keyPath, NO_DATA),
				this.client.transactionOp()
					.create()
					.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
					.forPath(lockNodePath, data));
		String path = created.get(1).getResultPath();
		try {
			work.run();
		}
		finally {
			commit(this.client.transactionOp().delete().forPath(path),
					this.client.transactionOp().delete().forPath(keyPath));
		}
	}

	private void runOnHandle(String keyPath, String lockNodePath, byte[] data, Runnable work) throws Exception {
		ZooKeeper zooKeeper = this.client.getZookeeperClient().getZooKeeper();
		List<OpResult> created = commit(zooKeeper,
				List.of(Op.create(keyPath, NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER),
						Op.create(lockNodePath, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL)));
		String path = ((OpResult.CreateResult) created.get(1)).getPath();
		try {
			work.run();
		}
		finally {
			commit(zooKeeper, List.of(Op.delete(path, -1), Op.delete(keyPath, -1)));
		}
	}

	private List<OpResult> commit(ZooKeeper zooKeeper, List<Op> operations) throws Exception {
		if (this.sending == Sending.HANDLE_SYNC) {
			return zooKeeper.multi(operations);
		}
		CompletableFuture<List<OpResult>> done = new CompletableFuture<>();
		zooKeeper.multi(operations, (code, path, context, results) -> {
			if (code == KeeperException.Code.OK.intValue()) {
				done.complete(results);
			}
			else {
				done.completeExceptionally(KeeperException.create(KeeperException.Code.get(code), path));
			}
		}, null);
		return RequestShapeCycle.awaited(done);
	}

	private List<CuratorTransactionResult> commit(CuratorOp... operations) throws Exception {
		CompletableFuture<List<CuratorTransactionResult>> done = new CompletableFuture<>();
		this.client.transaction()
			.inBackground((client, event) -> RequestShapeCycle.answer(event, done, event.getOpResults()))
			.forOperations(operations);
		return RequestShapeCycle.awaited(done);
	}

	/**
	 * How the transactions are sent.
	 */
	enum Sending {

		/** Curator's background transactions, the reply through the event thread. */
		CURATOR,

		/** Asynchronous transactions of the ZooKeeper handle, the reply through the event thread. */
		HANDLE_ASYNC,

		/** Synchronous transactions of the ZooKeeper handle, the caller waking on the reply. */
		HANDLE_SYNC

	}

	/**
	 * The lock node a cycle makes: zklock's own, or one that leaves out part of it, to measure
	 * what each part costs.
	 */
	enum Node {

		/** A bare node: {@code lock-<sequence>}, no data. */
		BARE(Id.NONE, false),

		/**
		 * The node zklock makes by default: named with a protected id of its own (a UUID, as
		 * Curator's protection makes it) and the marker of Curator's write lock, and holding the
		 * owner's data (participant, mode, asked).
		 */
		ZKLOCKS(Id.RANDOM_UUID, true),

		/** zklock's node with an id of 16 hex digits (64 random bits) in place of the UUID. */
		ZKLOCKS_SHORT_ID(Id.SIXTEEN_HEX, true),

		/** zklock's node name, without the owner's data. */
		ZKLOCKS_NO_DATA(Id.RANDOM_UUID, false),

		/** zklock's node with the short id and without the owner's data. */
		ZKLOCKS_SHORT_ID_NO_DATA(Id.SIXTEEN_HEX, false);

		private final Id id;

		private final boolean ownerData;

		Node(Id id, boolean ownerData) {
			this.id = id;
			this.ownerData = ownerData;
		}

		/**
		 * Return a new node's name, before the server's sequence number: {@code lock-} or, with an
		 * id, as zklock makes it: the protected prefix, the id and the marker of Curator's write
		 * lock.
		 */
		String newName() {
			ThreadLocalRandom random = ThreadLocalRandom.current();
			return switch (this.id) {
				case NONE -> "lock-";
				case RANDOM_UUID -> "_c_" + new UUID(random.nextLong(), random.nextLong()) + "-__WRIT__";
				case SIXTEEN_HEX -> "_c_" + HexFormat.of().toHexDigits(random.nextLong()) + "-__WRIT__";
			};
		}

		boolean ownerData() {
			return this.ownerData;
		}

		private enum Id {

			NONE, RANDOM_UUID, SIXTEEN_HEX

		}

	}

}
