package dev.zklock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.lock.LockKeys;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Locks that their holder releases ({@link ZkLockTemplate#acquire}), as the Curator, ShedLock and
 * Spring Integration adapters take them: held by no thread, released once, withdrawn by a cancel.
 */
@EmbeddedZooKeeper
@Timeout(120)
class ReleasableLockTests {

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private ZkLockTemplate first;

	private ZkLockTemplate second;

	private CuratorFramework observer;

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.first = template(server);
		this.second = template(server);
		this.observer = CuratorFrameworkFactory.newClient(server.getConnectString(), new ExponentialBackoffRetry(100, 3));
		this.observer.start();
		this.closeables.add(this.observer);
	}

	@AfterEach
	void tearDown() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
	}

	@Test
	void aLockIsHeldUntilReleasedFromAnyThreadAndOnlyOnce() throws Exception {
		ReleasableLock lock = this.first.acquire("orders", LockMode.EXCLUSIVE, Duration.ZERO);
		assertThat(lock).isNotNull();
		assertThat(lock.isValid()).isTrue();
		assertThat(this.first.heldLocks()).anySatisfy((held) -> assertThat(held.key()).isEqualTo("orders"));
		assertThat(this.second.acquire("orders", LockMode.EXCLUSIVE, Duration.ZERO)).isNull();
		// Not reentrant: the same thread waits for it like any other call.
		assertThat(this.first.acquire("orders", LockMode.EXCLUSIVE, Duration.ZERO)).isNull();
		CompletableFuture.runAsync(() -> lock.release().join()).get(10, TimeUnit.SECONDS);
		assertThat(lock.isReleased()).isTrue();
		assertThat(lock.isValid()).isFalse();
		assertThatIllegalStateException().isThrownBy(lock::release).withMessageContaining("orders");
		ReleasableLock next = this.second.acquire("orders", LockMode.EXCLUSIVE, Duration.ofSeconds(10));
		assertThat(next).isNotNull();
		assertThat(next.lock().fencingToken()).isGreaterThan(0);
		next.release().join();
	}

	@Test
	void aCancelledAcquisitionIsWithdrawnAndHoldsNothing() throws Exception {
		ReleasableLock holder = this.first.acquire("orders", LockMode.EXCLUSIVE, Duration.ZERO);
		CompletableFuture<ReleasableLock> waiting = this.second.acquireAsync("orders", LockMode.EXCLUSIVE,
				Duration.ofSeconds(60));
		// The waiter's node is seen on the server, and then withdrawn.
		await().atMost(Duration.ofSeconds(10)).until(() -> lockNodes("orders") == 2);
		waiting.cancel(false);
		await().atMost(Duration.ofSeconds(10)).until(() -> lockNodes("orders") == 1);
		assertThat(waiting).isCancelled();
		holder.release().join();
		ReleasableLock again = this.first.acquire("orders", LockMode.EXCLUSIVE, Duration.ofSeconds(10));
		assertThat(again).isNotNull();
		assertThat(this.second.heldLocks()).isEmpty();
		again.release().join();
	}

	@Test
	void sharedLocksOfTwoInstancesRunTogetherAndKeepAnExclusiveOneOut() throws Exception {
		ReleasableLock reader1 = this.first.acquire("stock", LockMode.SHARED, Duration.ZERO);
		ReleasableLock reader2 = this.second.acquire("stock", LockMode.SHARED, Duration.ofSeconds(10));
		assertThat(reader1).isNotNull();
		assertThat(reader2).isNotNull();
		assertThat(this.second.acquire("stock", LockMode.EXCLUSIVE, Duration.ofMillis(200))).isNull();
		reader1.release().join();
		reader2.release().join();
		ReleasableLock writer = this.second.acquire("stock", LockMode.EXCLUSIVE, Duration.ofSeconds(10));
		assertThat(writer).isNotNull();
		writer.release().join();
	}

	private int lockNodes(String key) throws Exception {
		return this.observer.getChildren().forPath("/zklock/locks/" + LockKeys.encode(key)).size();
	}

	private ZkLockTemplate template(ZooKeeperTestServer server) {
		CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(),
				new ExponentialBackoffRetry(100, 3));
		client.start();
		this.closeables.add(client);
		ZkLockTemplate template = new ZkLockTemplate(client, "/zklock/locks", Duration.ofSeconds(10), false);
		this.closeables.add(template);
		return template;
	}

}
