package dev.zklock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.lock.HoldingExecutor;
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockKeys;
import dev.zklock.lock.LockSettings;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lease of an asynchronous call cancelled at any moment, the grant included: the locks of a
 * cancelled call are released, and another instance (another session) takes the key at once.
 */
@EmbeddedZooKeeper
@Timeout(120)
class LockLeaseTests {

	private static final String BASE = "/zklock/locks";

	private static final int ROUNDS = 100;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final HoldingExecutor executor = new HoldingExecutor();

	private ZooKeeperTestServer server;

	private CuratorFramework observer;

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.server = server;
		this.observer = client();
	}

	@AfterEach
	void tearDown() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
		this.executor.close();
	}

	@Test
	void aLeaseCancelledAsTheGrantCompletesItsAcquisitionLeavesTheKeyFree() throws Exception {
		ZkLockTemplate template = template();
		template.setAsyncExecutor(this.executor);
		ZkLockTemplate other = template();
		for (int round = 0; round < ROUNDS; round++) {
			this.executor.hold();
			CompletableFuture<LockLease> leasing = template.lease(null, List.of("raced"), LockMode.EXCLUSIVE,
					Duration.ofSeconds(10));
			// The key is granted; the grant waits to complete the call's acquisition. It does so
			// as the lease is cancelled, before the cancel reaches the acquisition (a stage added
			// last runs first).
			Runnable grant = this.executor.nextHeld();
			leasing.whenComplete((lease, ex) -> grant.run());
			assertThat(leasing.cancel(false)).isTrue();
			this.executor.release();
			assertAnotherSessionTakesTheKey(other, "raced", round);
		}
	}

	@Test
	void aLeaseCancelledBeforeTheGrantCompletesItsAcquisitionLeavesTheKeyFree() throws Exception {
		ZkLockTemplate template = template();
		template.setAsyncExecutor(this.executor);
		ZkLockTemplate other = template();
		for (int round = 0; round < ROUNDS; round++) {
			this.executor.hold();
			CompletableFuture<LockLease> leasing = template.lease(null, List.of("withdrawn"), LockMode.EXCLUSIVE,
					Duration.ofSeconds(10));
			Runnable grant = this.executor.nextHeld();
			assertThat(leasing.cancel(false)).isTrue();
			grant.run();
			this.executor.release();
			assertAnotherSessionTakesTheKey(other, "withdrawn", round);
		}
	}

	private void assertAnotherSessionTakesTheKey(ZkLockTemplate other, String key, int round) {
		assertThat(other.tryExecute(key, LockMode.EXCLUSIVE, Duration.ofSeconds(5), (lock) -> "taken"))
			.as("another session takes the key within 5 seconds after round %d", round)
			.contains("taken");
		await().atMost(Duration.ofSeconds(5))
			.alias("no lock node under the key after round " + round)
			.until(() -> lockNodes(key).isEmpty());
	}

	private List<String> lockNodes(String key) throws Exception {
		try {
			return this.observer.getChildren().forPath(ZKPaths.makePath(BASE, LockKeys.encode(key)));
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	private ZkLockTemplate template() {
		ZkLockTemplate template = new ZkLockTemplate(client(), BASE, Duration.ofSeconds(10), false,
				LockCallListener.NONE, LockSettings.DEFAULTS);
		this.closeables.add(0, template);
		return template;
	}

	private CuratorFramework client() {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(this.server.getConnectString())
			.sessionTimeoutMs(10_000)
			.connectionTimeoutMs(5000)
			.retryPolicy(new ExponentialBackoffRetry(50, 5, 1000))
			.build();
		client.start();
		try {
			if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Test client did not connect");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		this.closeables.add(0, client);
		return client;
	}

}
