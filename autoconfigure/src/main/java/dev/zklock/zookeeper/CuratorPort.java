package dev.zklock.zookeeper;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.WatcherType;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The port on a started Curator client: what runs in production. Requests are
 * Curator's background requests (retried by its retry policy when the connection drops), but
 * for the two transactions of a key's first and last lock node, which Curator makes and the
 * client's ZooKeeper handle sends (synchronously, when a thread waits for them: its own reply
 * wakes it, bounded by {@link RequestDeadlines}); the other
 * replies and watches arrive on ZooKeeper's event thread, and timed or deferred work runs on the
 * scheduler thread of the lock engine or the elections.
 */
public final class CuratorPort implements ZooKeeperPort {

	private static final Log logger = LogFactory.getLog(CuratorPort.class);

	/**
	 * Bounds every wait of a thread on its own transaction, for all the ports of the process.
	 */
	private static final RequestDeadlines DEADLINES = new RequestDeadlines("zklock-request-deadlines",
			System::nanoTime);

	/**
	 * How long to wait before sending again a delete that the client could not send.
	 */
	private static final long DELETE_RETRY_MILLIS = 100;

	/**
	 * How many keys' container creates {@link #keyNodeCreates} keeps before it starts again.
	 */
	private static final int KEY_NODE_CREATES = 1024;

	private final CuratorFramework client;

	private final ScheduledExecutorService scheduler;

	private final String namespace;

	private final Map<ConnectionListener, ConnectionStateListener> listeners = new ConcurrentHashMap<>();

	/**
	 * The container create of the first-use transaction, by key path, as Curator made it: an
	 * operation is immutable and the same for every use of its key, and making it anew took a
	 * tenth of what an uncontended call allocates. Bounded: emptied when full.
	 */
	private final Map<String, Op> keyNodeCreates = new ConcurrentHashMap<>();

	public CuratorPort(CuratorFramework client, ScheduledExecutorService scheduler) {
		this.client = client;
		this.scheduler = scheduler;
		String namespace = client.getNamespace();
		this.namespace = (namespace != null) ? namespace : "";
	}

	@Override
	public void createLockNode(String path, byte[] data, Reply<Created> reply) {
		send(reply, () -> this.client.create()
			.withProtection()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground(answer(reply, (event) -> new Created(event.getName(),
					(event.getStat() != null) ? event.getStat().getEphemeralOwner() : 0)))
			.forPath(path, data));
	}

	@Override
	public void createKeyAndLockNode(String keyPath, String lockNodePath, byte[] data, Reply<KeyCreated> reply) {
		send(reply, () -> this.client.getZookeeperClient()
			.getZooKeeper()
			.multi(keyAndLockNode(keyPath, lockNodePath, data), (rc, path, context, results) -> {
				Code code = Code.get(rc);
				reply.done(code, (code == Code.OK) ? keyCreated(results) : null);
			}, null));
	}

	/**
	 * Send the first-use transaction and wait for its reply on the calling thread: ZooKeeper's
	 * client wakes the caller from the thread that reads the reply, where a background request's
	 * reply goes through its event thread first (a hand-off between threads more, on every call).
	 */
	@Override
	public void createKeyAndLockNodeWaiting(String keyPath, String lockNodePath, byte[] data, long answerBy,
			Reply<KeyCreated> reply) {
		if (WaitingThreads.pinsCarrier()) {
			ZooKeeperPort.super.createKeyAndLockNodeWaiting(keyPath, lockNodePath, data, answerBy, reply);
			return;
		}
		multiWaiting(() -> keyAndLockNode(keyPath, lockNodePath, data), answerBy,
				(code, results) -> reply.done(code, (code == Code.OK && results != null) ? keyCreated(results) : null));
	}

	/**
	 * Make the first-use transaction's two creates with Curator, with what it adds to every create
	 * of the client (its namespace, the ACL of its ACLProvider, its compression), for the client's
	 * handle to send: Curator's transaction and its results would cost a third as much again as
	 * the requests themselves. The key node's is made once per key ({@link #keyNodeCreate}).
	 */
	private List<Op> keyAndLockNode(String keyPath, String lockNodePath, byte[] data) throws Exception {
		Op keyNode = keyNodeCreate(keyPath);
		Op lockNode = this.client.transactionOp()
			.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath(lockNodePath, data)
			.get();
		return List.of(keyNode, lockNode);
	}

	/**
	 * Return the key node's create as Curator makes it for the client, made once per key (what
	 * Curator adds to it, the namespace, the ACL its ACLProvider gives the path and the client's
	 * default data, depends on the path alone).
	 */
	private Op keyNodeCreate(String keyPath) throws Exception {
		Op create = this.keyNodeCreates.get(keyPath);
		if (create == null) {
			create = this.client.transactionOp().create().withMode(CreateMode.CONTAINER).forPath(keyPath).get();
			if (this.keyNodeCreates.size() >= KEY_NODE_CREATES) {
				this.keyNodeCreates.clear();
			}
			this.keyNodeCreates.put(keyPath, create);
		}
		return create;
	}

	/**
	 * Send a transaction on the client's handle and wait for its reply on this thread, at most
	 * until {@code answerBy} ({@link RequestDeadlines} interrupts the wait then). A transaction
	 * whose time is up before it is sent goes out without a wait. Not retried: its outcome is
	 * unknown after any answer but a reply.
	 */
	private void multiWaiting(Transaction making, long answerBy, MultiReply reply) {
		ZooKeeper zooKeeper;
		List<Op> transaction;
		try {
			transaction = making.ops();
			zooKeeper = this.client.getZookeeperClient().getZooKeeper();
		}
		catch (Exception ex) {
			logger.debug("Could not send a lock request: " + ex);
			reply.done(Code.SYSTEMERROR, null);
			return;
		}
		if (answerBy != Long.MAX_VALUE && answerBy - nanoTime() <= 0) {
			zooKeeper.multi(transaction, (rc, path, context, results) -> {
			}, null);
			reply.done(Code.OPERATIONTIMEOUT, null);
			return;
		}
		RequestDeadlines.Wait wait = (answerBy != Long.MAX_VALUE) ? DEADLINES.begin(answerBy) : null;
		Code code;
		List<OpResult> results = null;
		boolean interrupted = false;
		try {
			results = zooKeeper.multi(transaction);
			code = Code.OK;
		}
		catch (KeeperException ex) {
			// A failed transaction: the code of its first failed operation, as its reply's.
			code = ex.code();
		}
		catch (InterruptedException ex) {
			code = Code.OPERATIONTIMEOUT;
			interrupted = true;
		}
		catch (RuntimeException ex) {
			logger.debug("Could not send a lock request: " + ex);
			code = Code.SYSTEMERROR;
		}
		boolean late = (wait != null) && DEADLINES.end(wait);
		if (interrupted && !late) {
			// Not the deadline's interrupt: the caller's own, which it must still see.
			Thread.currentThread().interrupt();
		}
		reply.done(code, results);
	}

	/**
	 * Read the transaction's results: the key node's create answers with its stat (a container
	 * is made by a create that returns one), whose {@code czxid} is the transaction's zxid; 0
	 * where the server gave none, which the core then reads.
	 */
	private KeyCreated keyCreated(List<OpResult> results) {
		Stat key = ((OpResult.CreateResult) results.get(0)).getStat();
		String lockNode = ((OpResult.CreateResult) results.get(1)).getPath();
		return new KeyCreated(outOfNamespace(lockNode), (key != null) ? key.getCzxid() : 0);
	}

	@Override
	public void createSequentialNode(String path, byte[] data, Reply<Created> reply) {
		send(reply, () -> this.client.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground(answer(reply, (event) -> new Created(event.getName(),
					(event.getStat() != null) ? event.getStat().getEphemeralOwner() : 0)))
			.forPath(path, data));
	}

	@Override
	public void createContainers(String path, Reply<Void> reply) {
		send(reply, () -> this.client.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.CONTAINER)
			.inBackground(answer(reply, (event) -> null))
			.forPath(path));
	}

	@Override
	public void getChildren(String path, @Nullable Runnable watch, Reply<Children> reply) {
		BackgroundCallback callback = answer(reply,
				(event) -> new Children(event.getChildren(), event.getStat().getPzxid()));
		send(reply, () -> {
			if (watch != null) {
				this.client.getChildren().usingWatcher(watcher(watch)).inBackground(callback).forPath(path);
			}
			else {
				this.client.getChildren().inBackground(callback).forPath(path);
			}
		});
	}

	@Override
	public void exists(String path, @Nullable Runnable watch, Reply<NodeStat> reply) {
		BackgroundCallback callback = stat(reply);
		send(reply, () -> {
			if (watch != null) {
				this.client.checkExists().usingWatcher(watcher(watch)).inBackground(callback).forPath(path);
			}
			else {
				this.client.checkExists().inBackground(callback).forPath(path);
			}
		});
	}

	@Override
	public void getData(String path, Reply<byte[]> reply) {
		send(reply, () -> this.client.getData().inBackground(answer(reply, CuratorEvent::getData)).forPath(path));
	}

	@Override
	public void removeWatches(String path) {
		try {
			this.client.watchers()
				.removeAll()
				.ofType(WatcherType.Any)
				.locally()
				.quietly()
				.inBackground()
				.withUnhandledErrorListener((message, ex) -> logger
					.debug("Could not remove the watches of " + path + " on the server: " + ex))
				.forPath(path);
		}
		catch (Exception ex) {
			logger.debug("Could not remove the watches of " + path + ": " + ex);
		}
	}

	@Override
	public void delete(String path, @Nullable Reply<Void> reply) {
		try {
			this.client.delete()
				.guaranteed()
				.inBackground((c, event) -> {
					if (reply != null) {
						reply.done(Code.get(event.getResultCode()), null);
					}
				})
				.withUnhandledErrorListener((message, ex) -> deleteAgain(path, reply, ex))
				.forPath(path);
		}
		catch (Exception ex) {
			leftToSession(path, ex);
		}
	}

	/**
	 * The client could not send a delete: its handle threw before the request went out (a
	 * thread that refuses to wait for the client's queue lock, memory running out). Curator's
	 * guarantee covers a connection loss only, so send it again shortly, from the scheduler's
	 * thread: a node left in place would keep the key from every other instance for as long as
	 * the session lives.
	 */
	private void deleteAgain(String path, @Nullable Reply<Void> reply, Throwable failure) {
		if (this.client.getState() != CuratorFrameworkState.STARTED) {
			leftToSession(path, failure);
			return;
		}
		logger.debug("Could not send the delete of " + path + "; sending it again: " + failure);
		try {
			this.scheduler.schedule(() -> delete(path, reply), DELETE_RETRY_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			leftToSession(path, failure);
		}
	}

	private static void leftToSession(String path, Throwable failure) {
		logger.warn("Could not delete lock node " + path + "; it goes with its session", failure);
	}

	/**
	 * Sent on the client's ZooKeeper handle, without Curator's transaction builders: every
	 * uncontended call ends with it, and none of what Curator adds applies (no ACL or data to
	 * give, and no retry wanted: the caller deletes its node alone, guaranteed, after any answer
	 * but {@code OK}). The handle answers a failed transaction with the code of its first failed
	 * operation, as Curator does.
	 */
	@Override
	public void deleteLockAndKeyNode(String lockNodePath, String keyPath, Reply<Void> reply) {
		send(reply, () -> this.client.getZookeeperClient()
			.getZooKeeper()
			.multi(lockAndKeyNode(lockNodePath, keyPath),
					(rc, path, context, results) -> reply.done(Code.get(rc), null), null));
	}

	/**
	 * Send the release's transaction and wait for its reply on the calling thread, as
	 * {@link #createKeyAndLockNodeWaiting} does.
	 */
	@Override
	public void deleteLockAndKeyNodeWaiting(String lockNodePath, String keyPath, long answerBy, Reply<Void> reply) {
		if (WaitingThreads.pinsCarrier()) {
			ZooKeeperPort.super.deleteLockAndKeyNodeWaiting(lockNodePath, keyPath, answerBy, reply);
			return;
		}
		multiWaiting(() -> lockAndKeyNode(lockNodePath, keyPath), answerBy, (code, results) -> reply.done(code, null));
	}

	private List<Op> lockAndKeyNode(String lockNodePath, String keyPath) {
		return List.of(Op.delete(inNamespace(lockNodePath), -1), Op.delete(inNamespace(keyPath), -1));
	}

	/**
	 * Return the path that the server knows for a path of the client's namespace.
	 */
	private String inNamespace(String path) {
		return this.namespace.isEmpty() ? path : ZKPaths.makePath(this.namespace, path);
	}

	/**
	 * Return the path in the client's namespace of a path that the server knows.
	 */
	private String outOfNamespace(String path) {
		return this.namespace.isEmpty() ? path : path.substring(this.namespace.length() + 1);
	}

	@Override
	public void touch(String path, byte[] data, Reply<NodeStat> reply) {
		send(reply, () -> this.client.setData().inBackground(stat(reply)).forPath(path, data));
	}

	@Override
	public void syncAndRead(String path, Reply<NodeStat> reply) {
		send(reply, () -> this.client.sync().inBackground((c, synced) -> {
			Code code = Code.get(synced.getResultCode());
			if (code == Code.OK) {
				exists(path, null, reply);
			}
			else {
				// A read without the sync could answer from a server behind the ensemble.
				reply.done(code, null);
			}
		}).forPath(path));
	}

	@Override
	public long sessionId() {
		try {
			return this.client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	@Override
	public boolean isConnected() {
		return this.client.getZookeeperClient().isConnected();
	}

	@Override
	public boolean awaitConnected(long nanos) throws InterruptedException {
		if (nanos < 0) {
			this.client.blockUntilConnected();
			return true;
		}
		long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
		return millis > 0
				&& this.client.blockUntilConnected((int) Math.min(Integer.MAX_VALUE, millis), TimeUnit.MILLISECONDS);
	}

	@Override
	public String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

	@Override
	public void addConnectionListener(ConnectionListener listener) {
		ConnectionStateListener curatorListener = (client, state) -> {
			switch (state) {
				case CONNECTED -> listener.changed(Connection.CONNECTED);
				case SUSPENDED, READ_ONLY -> listener.changed(Connection.SUSPENDED);
				case RECONNECTED -> listener.changed(Connection.RECONNECTED);
				case LOST -> listener.changed(Connection.LOST);
			}
		};
		this.listeners.put(listener, curatorListener);
		this.client.getConnectionStateListenable().addListener(curatorListener);
	}

	@Override
	public void removeConnectionListener(ConnectionListener listener) {
		ConnectionStateListener curatorListener = this.listeners.remove(listener);
		if (curatorListener != null) {
			this.client.getConnectionStateListenable().removeListener(curatorListener);
		}
	}

	@Override
	public long nanoTime() {
		return System.nanoTime();
	}

	/**
	 * Run a task later; nothing once the engine has closed (a reply that arrives after the close
	 * may still decide to keep a node or retry: the session ends with the client anyway).
	 */
	@Override
	public Timer schedule(Runnable task, long nanos) {
		try {
			return new ScheduledTimer(this.scheduler.schedule(task, nanos, TimeUnit.NANOSECONDS));
		}
		catch (RejectedExecutionException ex) {
			return () -> {
			};
		}
	}

	@Override
	public void execute(Runnable task) {
		try {
			this.scheduler.execute(task);
		}
		catch (RejectedExecutionException ex) {
			logger.debug("Lock engine closed; a deferred lock task is dropped");
		}
	}

	/**
	 * Return a random UUID from a source that never reads a file (unlike
	 * {@link UUID#randomUUID()}), so that a non-blocking thread may start a lock request. The id
	 * needs to be unique among this client's creates, not unguessable.
	 */
	@Override
	public String newProtectedId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long most = (random.nextLong() & ~0xf000L) | 0x4000L;
		long least = (random.nextLong() & ~(0xc0L << 56)) | (0x80L << 56);
		return new UUID(most, least).toString();
	}

	/**
	 * A watch that runs on a change of its node only: not on a connection event, nor when it is
	 * removed ({@link #removeWatches}, which ZooKeeper tells the watcher of).
	 */
	private static Watcher watcher(Runnable watch) {
		return (event) -> {
			switch (event.getType()) {
				case NodeCreated, NodeDeleted, NodeDataChanged, NodeChildrenChanged -> watch.run();
				default -> {
				}
			}
		};
	}

	private static BackgroundCallback stat(Reply<NodeStat> reply) {
		return answer(reply, (event) -> {
			Stat stat = event.getStat();
			return new NodeStat(stat.getCzxid(), stat.getMzxid(), stat.getPzxid(), stat.getEphemeralOwner());
		});
	}

	private static <T> BackgroundCallback answer(Reply<T> reply, Reading<T> reading) {
		return (client, event) -> {
			Code code = Code.get(event.getResultCode());
			if (code == Code.OK) {
				reply.done(code, reading.read(event));
			}
			else {
				reply.done(code, null);
			}
		};
	}

	private static void send(Reply<?> reply, Request request) {
		try {
			request.send();
		}
		catch (Exception ex) {
			logger.debug("Could not send a lock request: " + ex);
			reply.done(Code.SYSTEMERROR, null);
		}
	}

	/**
	 * A task of the scheduler, to cancel. The engine's and the elections' schedulers remove a
	 * cancelled task from their queue, under the queue's lock, which their thread holds for a
	 * moment to take a task; an asynchronous call cancels its timers on the thread that completes
	 * it, a non-blocking one in a reactive application ({@link dev.zklock.ZkLockBlockHoundIntegration}
	 * allows that wait).
	 */
	private static final class ScheduledTimer implements Timer {

		private final ScheduledFuture<?> future;

		ScheduledTimer(ScheduledFuture<?> future) {
			this.future = future;
		}

		@Override
		public void cancel() {
			this.future.cancel(false);
		}

	}

	@FunctionalInterface
	private interface Transaction {

		List<Op> ops() throws Exception;

	}

	@FunctionalInterface
	private interface MultiReply {

		void done(Code code, @Nullable List<OpResult> results);

	}

	@FunctionalInterface
	private interface Request {

		void send() throws Exception;

	}

	@FunctionalInterface
	private interface Reading<T> {

		@Nullable T read(CuratorEvent event);

	}

}
