package dev.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import dev.zklock.zookeeper.CuratorPort;
import dev.zklock.zookeeper.ZooKeeperPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lock core against a real server, with one fault injected at its port to ZooKeeper at the
 * moment that matters: a reply lost after the server applied the request, a confirmation that
 * gets no answer, a request abandoned before it started. Each is an interleaving that the
 * deterministic simulator found (or that the reading of the code did) and that a real network
 * rarely produces on its own.
 */
@EmbeddedZooKeeper
@Timeout(120)
class LockCoreFaultTests {

	private static final Executor DIRECT = Runnable::run;

	private LockTestSupport support;

	private ScheduledExecutorService scheduler;

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.support = new LockTestSupport(server);
		this.scheduler = LockScheduler.create();
	}

	@AfterEach
	void tearDown() throws Exception {
		this.scheduler.shutdownNow();
		this.support.close();
	}

	@Test
	void anAbandonedFirstUseWhoseTransactionReplyWasLostLeavesNoNode() throws Exception {
		CuratorFramework client = this.support.client();
		AtomicReference<NodeAcquisition> acquisition = new AtomicReference<>();
		AtomicBoolean applied = new AtomicBoolean();
		ZooKeeperPort port = new FaultyPort(new CuratorPort(client, this.scheduler)) {

			@Override
			public void createKeyAndLockNode(String keyPath, String lockNodePath, byte[] data, Reply<KeyCreated> reply) {
				// The server applies the transaction; its reply is lost with the connection, and
				// meanwhile the call that wanted the node gave up.
				super.createKeyAndLockNode(keyPath, lockNodePath, data, (rc, created) -> {
					applied.set(rc == Code.OK);
					acquisition.get().abandon();
					reply.done(Code.CONNECTIONLOSS, null);
				});
			}

		};
		String keyPath = LockTestSupport.BASE + "/lost-transaction-reply";
		ensure(client, LockTestSupport.BASE);
		acquisition.set(new NodeAcquisition(port, keyPath, LockMode.EXCLUSIVE, LockNodeNames.READ_WRITE_LOCK, new KeyNodes(), new Stalls(port),
				(node) -> {
				}));
		acquisition.get().start();
		// The key node is a container: the server may remove it once its lock node is gone.
		await().atMost(Duration.ofSeconds(10)).untilTrue(applied);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(lockNodes(client, keyPath)).as("lock nodes left").isEmpty());
	}

	@Test
	void anAbandonedFirstUseWhoseRetriedTransactionFoundTheKeyNodeLeavesNoNode() throws Exception {
		CuratorFramework client = this.support.client();
		AtomicReference<Runnable> sendTransaction = new AtomicReference<>();
		AtomicBoolean applied = new AtomicBoolean();
		CountDownLatch searched = new CountDownLatch(1);
		ZooKeeperPort port = new FaultyPort(new CuratorPort(client, this.scheduler)) {

			@Override
			public void createKeyAndLockNode(String keyPath, String lockNodePath, byte[] data, Reply<KeyCreated> reply) {
				// Held back, as a request sent while disconnected: the server applies it later,
				// its reply is lost, and Curator's retry finds the key node its first try made.
				sendTransaction.set(() -> super.createKeyAndLockNode(keyPath, lockNodePath, data, (rc, created) -> {
					applied.set(rc == Code.OK);
					reply.done((rc == Code.OK) ? Code.NODEEXISTS : rc, null);
				}));
			}

			@Override
			public void getChildren(String path, @Nullable Runnable watch, Reply<Children> reply) {
				super.getChildren(path, watch, (rc, read) -> {
					reply.done(rc, read);
					searched.countDown();
				});
			}

		};
		String keyPath = LockTestSupport.BASE + "/retried-transaction";
		ensure(client, LockTestSupport.BASE);
		NodeAcquisition acquisition = new NodeAcquisition(port, keyPath, LockMode.EXCLUSIVE, LockNodeNames.READ_WRITE_LOCK, new KeyNodes(),
				new Stalls(port), (node) -> {
				});
		acquisition.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> sendTransaction.get() != null);
		// The call gives up; the search for its transaction's node reads before the node exists.
		acquisition.abandon();
		assertThat(searched.await(10, TimeUnit.SECONDS)).isTrue();
		sendTransaction.get().run();
		await().atMost(Duration.ofSeconds(10)).untilTrue(applied);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(lockNodes(client, keyPath)).as("lock nodes left").isEmpty());
	}

	@Test
	void aRequestAbandonedBeforeItStartedCreatesNoNode() throws Exception {
		CuratorFramework client = this.support.client();
		ZooKeeperPort port = new CuratorPort(client, this.scheduler);
		String keyPath = LockTestSupport.BASE + "/abandoned-before-start";
		ensure(client, keyPath);
		KeyNodes keyNodes = new KeyNodes();
		keyNodes.remember(keyPath);
		NodeAcquisition acquisition = new NodeAcquisition(port, keyPath, LockMode.EXCLUSIVE, LockNodeNames.READ_WRITE_LOCK, keyNodes, new Stalls(port),
				(node) -> {
				});
		// The key's lock decided to start the request, then, before the thread that decided it
		// ran the start, another thread withdrew the last call and abandoned it.
		acquisition.abandon();
		acquisition.start();
		// A node created in the background would show within a round trip; a read through the
		// same session comes after any create the start sent.
		client.sync().forPath(keyPath);
		assertThat(client.getChildren().forPath(keyPath)).as("lock nodes").isEmpty();
	}

	@Test
	void aNodeLeftInDoubtByAConfirmationWithoutAnswerIsConfirmedAgainAndItsWaitersGoOn() throws Exception {
		CuratorFramework client = this.support.client();
		AtomicBoolean swallowConfirmation = new AtomicBoolean();
		AtomicLong pausedAt = new AtomicLong(Long.MIN_VALUE);
		ZooKeeperPort port = new FaultyPort(new CuratorPort(client, this.scheduler)) {

			@Override
			public void syncAndRead(String path, Reply<NodeStat> reply) {
				if (swallowConfirmation.getAndSet(false)) {
					return; // the server answers too late (a long collection on its side)
				}
				super.syncAndRead(path, reply);
			}

		};
		Pauses pauses = (since) -> pausedAt.get() != Long.MIN_VALUE && pausedAt.get() - since >= 0;
		try (LockEngine engine = new LockEngine(port, pauses, LockTestSupport.BASE, false, LockCallListener.NONE,
				LockSettings.DEFAULTS, FencingTokenSpace.MAX_COUNT)) {
			Acquisition first = engine.acquireAsync(List.of("in-doubt"), LockMode.EXCLUSIVE, Duration.ofSeconds(10), DIRECT)
				.get(10, TimeUnit.SECONDS);
			assertThat(first).isNotNull();
			CompletableFuture<@Nullable Acquisition> waiting = engine.acquireAsync(List.of("in-doubt"), LockMode.EXCLUSIVE,
					Duration.ofSeconds(30), DIRECT);
			// The process paused while the first call held the key; its check at the end asks the
			// server, which does not answer within the confirmation time.
			pausedAt.set(System.nanoTime());
			swallowConfirmation.set(true);
			assertThat(engine.finishAsync(first).get(20, TimeUnit.SECONDS)).as("the first call's lock is in doubt")
				.isNotNull();
			// The node is confirmed again in the background: the waiting call gets the key well
			// within its wait time, without any connection event.
			Acquisition second = waiting.get(20, TimeUnit.SECONDS);
			assertThat(second).as("the waiting call's grant").isNotNull();
			assertThat(second.innermost().isValid()).isTrue();
			engine.finishAsync(second).get(10, TimeUnit.SECONDS);
		}
	}

	private static void ensure(CuratorFramework client, String path) throws Exception {
		if (client.checkExists().forPath(path) == null) {
			client.create().creatingParentContainersIfNeeded().forPath(path);
		}
	}

	/**
	 * A port that passes everything to another one; tests override the request they break.
	 */
	private static List<String> lockNodes(CuratorFramework client, String keyPath) throws Exception {
		try {
			return client.getChildren().forPath(keyPath);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	static class FaultyPort implements ZooKeeperPort {

		private final ZooKeeperPort port;

		FaultyPort(ZooKeeperPort port) {
			this.port = port;
		}

		@Override
		public void createLockNode(String path, byte[] data, Reply<Created> reply) {
			this.port.createLockNode(path, data, reply);
		}

		@Override
		public void createKeyAndLockNode(String keyPath, String lockNodePath, byte[] data, Reply<KeyCreated> reply) {
			this.port.createKeyAndLockNode(keyPath, lockNodePath, data, reply);
		}

		@Override
		public void createContainers(String path, Reply<Void> reply) {
			this.port.createContainers(path, reply);
		}

		@Override
		public void getChildren(String path, @Nullable Runnable watch, Reply<Children> reply) {
			this.port.getChildren(path, watch, reply);
		}

		@Override
		public void exists(String path, @Nullable Runnable watch, Reply<NodeStat> reply) {
			this.port.exists(path, watch, reply);
		}

		@Override
		public void delete(String path, @Nullable Reply<Void> reply) {
			this.port.delete(path, reply);
		}

		@Override
		public void createSequentialNode(String path, byte[] data, Reply<Created> reply) {
			this.port.createSequentialNode(path, data, reply);
		}

		@Override
		public void getData(String path, Reply<byte[]> reply) {
			this.port.getData(path, reply);
		}

		@Override
		public void removeWatches(String path) {
			this.port.removeWatches(path);
		}

		@Override
		public void deleteLockAndKeyNode(String lockNodePath, String keyPath, Reply<Void> reply) {
			this.port.deleteLockAndKeyNode(lockNodePath, keyPath, reply);
		}

		@Override
		public void touch(String path, byte[] data, Reply<NodeStat> reply) {
			this.port.touch(path, data, reply);
		}

		@Override
		public void syncAndRead(String path, Reply<NodeStat> reply) {
			this.port.syncAndRead(path, reply);
		}

		@Override
		public long sessionId() {
			return this.port.sessionId();
		}

		@Override
		public boolean isConnected() {
			return this.port.isConnected();
		}

		@Override
		public boolean awaitConnected(long nanos) throws InterruptedException {
			return this.port.awaitConnected(nanos);
		}

		@Override
		public String connectString() {
			return this.port.connectString();
		}

		@Override
		public void addConnectionListener(ConnectionListener listener) {
			this.port.addConnectionListener(listener);
		}

		@Override
		public void removeConnectionListener(ConnectionListener listener) {
			this.port.removeConnectionListener(listener);
		}

		@Override
		public long nanoTime() {
			return this.port.nanoTime();
		}

		@Override
		public Timer schedule(Runnable task, long nanos) {
			return this.port.schedule(task, nanos);
		}

		@Override
		public void execute(Runnable task) {
			this.port.execute(task);
		}

		@Override
		public String newProtectedId() {
			return this.port.newProtectedId();
		}

	}

}
