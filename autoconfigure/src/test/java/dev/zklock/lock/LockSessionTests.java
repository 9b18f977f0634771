package dev.zklock.lock;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.ZkLockException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What holders and waiters see when the session or ZooKeeper itself goes away.
 */
@EmbeddedZooKeeper
@Timeout(120)
class LockSessionTests {

	private ZooKeeperTestServer server;

	private LockTestSupport support;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.server = server;
		this.support = new LockTestSupport(server);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
		this.support.close();
	}

	@Test
	void holderWhoseSessionExpiresLearnsItAndAnotherClientGetsTheLock() throws Exception {
		CuratorFramework holderClient = this.support.client(Duration.ofSeconds(4));
		ZkLockTemplate holder = this.support.template(holderClient, false);
		ZkLockTemplate other = this.support.template();
		AtomicReference<HeldLock> held = new AtomicReference<>();
		AtomicLong heldToken = new AtomicLong();
		CountDownLatch finish = new CountDownLatch(1);
		Future<String> holding = this.executor.submit(() -> holder.execute("order:7", (lock) -> {
			// The token is taken while the lock is held: one first asked after the loss is refused.
			heldToken.set(lock.fencingToken());
			held.set(lock);
			finish.await(60, TimeUnit.SECONDS);
			return "done";
		}));
		await().atMost(Duration.ofSeconds(20)).until(() -> held.get() != null);
		assertThat(held.get().isValid()).isTrue();
		this.support.expireSession(holderClient);
		await().atMost(Duration.ofSeconds(20)).until(() -> !held.get().isValid());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(held.get()::ensureValid)
			.withMessageContaining("'order:7'");
		assertThat(other.execute("order:7", LockMode.EXCLUSIVE, Duration.ofSeconds(20), HeldLock::fencingToken))
			.isGreaterThan(heldToken.get());
		assertThat(held.get().fencingToken()).as("the token given during the call, given again").isEqualTo(heldToken.get());
		finish.countDown();
		assertThat(holding).failsWithin(Duration.ofSeconds(20))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.havingCause()
			.isInstanceOf(LockLostException.class)
			.withMessageContaining("'order:7'")
			.withMessageContaining("the call's result is discarded");
	}

	@Test
	void interruptOnLostInterruptsTheHolder() throws Exception {
		CuratorFramework holderClient = this.support.client(Duration.ofSeconds(4));
		ZkLockTemplate holder = this.support.template(holderClient, true);
		CountDownLatch inside = new CountDownLatch(1);
		Future<String> holding = this.executor.submit(() -> holder.execute("order:8", (lock) -> {
			inside.countDown();
			new CountDownLatch(1).await(60, TimeUnit.SECONDS);
			return "not interrupted";
		}));
		assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
		this.support.expireSession(holderClient);
		assertThat(holding).failsWithin(Duration.ofSeconds(30))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.havingCause()
			.isInstanceOf(InterruptedException.class);
	}

	@Test
	void zooKeeperRestartedWhileCallsWait() throws Exception {
		ZkLockTemplate holder = this.support.template();
		ZkLockTemplate waiter = this.support.template();
		AtomicReference<HeldLock> held = new AtomicReference<>();
		CountDownLatch finish = new CountDownLatch(1);
		Future<String> holding = this.executor.submit(() -> holder.execute("restart", (lock) -> {
			held.set(lock);
			finish.await(60, TimeUnit.SECONDS);
			return "holder done";
		}));
		await().atMost(Duration.ofSeconds(20)).until(() -> held.get() != null);
		Future<String> waiting = this.executor.submit(
				() -> waiter.execute("restart", LockMode.EXCLUSIVE, Duration.ofSeconds(60), (lock) -> "waiter done"));
		await().atMost(Duration.ofSeconds(20)).until(() -> waiter.waitingCalls().size() == 1);
		this.server.stop();
		try {
			await().atMost(Duration.ofSeconds(20)).until(() -> !held.get().isValid());
			assertThat(holder.heldLocks()).singleElement()
				.satisfies((info) -> assertThat(info.state()).isEqualTo("IN_DOUBT"));
		}
		finally {
			this.server.restart();
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> held.get().isValid());
		finish.countDown();
		assertThat(holding.get(30, TimeUnit.SECONDS)).isEqualTo("holder done");
		assertThat(waiting.get(30, TimeUnit.SECONDS)).isEqualTo("waiter done");
	}

	@Test
	void callsWaitingWhileZooKeeperIsUnreachableFailWithinTheirWaitTime() throws Exception {
		ZkLockTemplate holder = this.support.template();
		ZkLockTemplate waiter = this.support.template();
		CountDownLatch finish = new CountDownLatch(1);
		AtomicReference<HeldLock> held = new AtomicReference<>();
		Future<?> holding = this.executor.submit(() -> holder.execute("outage", (lock) -> {
			held.set(lock);
			return finish.await(60, TimeUnit.SECONDS);
		}));
		await().atMost(Duration.ofSeconds(20)).until(() -> held.get() != null);
		Duration wait = Duration.ofSeconds(3);
		long[] ended = new long[1];
		long started = System.nanoTime();
		Future<String> waiting = this.executor.submit(() -> {
			try {
				return waiter.execute("outage", LockMode.EXCLUSIVE, wait, (lock) -> "got it");
			}
			finally {
				ended[0] = System.nanoTime();
			}
		});
		await().atMost(Duration.ofSeconds(20)).until(() -> waiter.waitingCalls().size() == 1);
		this.server.stop();
		try {
			assertThat(waiting).failsWithin(Duration.ofSeconds(20))
				.withThrowableOfType(java.util.concurrent.ExecutionException.class)
				.havingCause()
				.isExactlyInstanceOf(ZkLockException.class)
				.withMessageContaining("unreachable")
				.withMessageContaining("'outage'");
			assertThat(Duration.ofNanos(ended[0] - started)).isLessThan(wait.plusMillis(500));
			long newCall = System.nanoTime();
			assertThatExceptionOfType(ZkLockException.class)
				.isThrownBy(() -> waiter.execute("elsewhere", LockMode.EXCLUSIVE, Duration.ofSeconds(1), (lock) -> "x"))
				.withMessageContaining("unreachable");
			assertThat(Duration.ofNanos(System.nanoTime() - newCall)).isLessThan(Duration.ofMillis(1500));
			// The holder returns while its lock is in doubt: its result must not count.
			await().atMost(Duration.ofSeconds(20)).until(() -> !held.get().isValid());
			finish.countDown();
			assertThat(holding).failsWithin(Duration.ofSeconds(20))
				.withThrowableOfType(java.util.concurrent.ExecutionException.class)
				.havingCause()
				.isInstanceOf(LockLostException.class)
				.withMessageContaining("'outage'");
		}
		finally {
			finish.countDown();
			this.server.restart();
		}
	}

}
