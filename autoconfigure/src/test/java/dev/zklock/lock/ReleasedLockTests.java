package dev.zklock.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.ZkLockContext;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * A released {@link HeldLock} says so, whatever grant it was: not valid, a token it gave during
 * the call still the same, a token it had not given refused with {@link IllegalStateException},
 * and never returned by {@link ZkLockContext}.
 */
@EmbeddedZooKeeper
@Timeout(120)
class ReleasedLockTests {

	private static final LockSettings KEEP = new LockSettings(true, 32, Duration.ofMillis(100), Duration.ofSeconds(30),
			3);

	private LockTestSupport support;

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.support = new LockTestSupport(server);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.support.close();
	}

	@Test
	void anOuterLockReleasedSaysSo() {
		ZkLockTemplate template = this.support.template();
		HeldLock asked = template.execute("outer-asked", (lock) -> {
			lock.fencingToken();
			return lock;
		});
		long given = template.execute("outer-asked", HeldLock::fencingToken);
		assertReleased(asked, true);
		assertThat(given).isPositive();
		HeldLock neverAsked = template.execute("outer", (lock) -> lock);
		assertReleased(neverAsked, false);
	}

	@Test
	void anInnerReentrantLockReleasedSaysSoWhileTheOuterCallStillHoldsTheKey() {
		ZkLockTemplate template = this.support.template();
		HeldLock[] inner = new HeldLock[1];
		HeldLock outer = template.execute("reentered", (held) -> {
			inner[0] = template.execute("reentered", LockMode.SHARED, null, (lock) -> lock);
			// The outer call holds the key still, and is what the context shows.
			assertThat(held.isValid()).isTrue();
			assertThat(ZkLockContext.find("reentered")).containsSame(held);
			assertReleasedLock(inner[0], false);
			return held;
		});
		assertReleased(outer, false);
		assertReleased(inner[0], false);
	}

	@Test
	void aHandedOffLockReleasedSaysSo() throws Exception {
		ZkLockTemplate template = this.support.template();
		CountDownLatch holding = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		// A thread each: the two calls block, and a common pool may have a single worker.
		Executor threadEach = (task) -> new Thread(task, "released-lock-test").start();
		CompletableFuture<HeldLock> first = CompletableFuture.supplyAsync(() -> template.execute("handed", (lock) -> {
			holding.countDown();
			awaitLatch(release);
			return lock;
		}), threadEach);
		assertThat(holding.await(20, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<HeldLock> second = CompletableFuture
			.supplyAsync(() -> template.execute("handed", LockMode.EXCLUSIVE, Duration.ofSeconds(30), (lock) -> lock),
					threadEach);
		await().atMost(Duration.ofSeconds(20)).until(() -> !template.waitingCalls().isEmpty());
		release.countDown();
		HeldLock handedOff = second.get(30, TimeUnit.SECONDS);
		if (LockTestSupport.defaultSettings().handoff()) {
			assertThat(template.lockCounts().handoffs()).as("handoffs").isEqualTo(1);
		}
		assertReleased(first.get(30, TimeUnit.SECONDS), false);
		assertReleased(handedOff, false);
	}

	@Test
	void aLockThatReusedAKeptNodeReleasedSaysSo() {
		ZkLockTemplate template = this.support.template(this.support.client(), KEEP);
		template.execute("kept", (lock) -> null);
		assertThat(template.keptLocks()).isNotEmpty();
		HeldLock reused = template.execute("kept", (lock) -> lock);
		assertThat(template.lockCounts().reuses()).isEqualTo(1);
		assertReleased(reused, false);
	}

	@Test
	void anAsynchronousLockReleasedSaysSo() throws Exception {
		ZkLockTemplate template = this.support.template();
		HeldLock asynchronous = template
			.executeAsync("async", (lock) -> CompletableFuture.completedFuture(lock))
			.get(30, TimeUnit.SECONDS);
		assertReleased(asynchronous, false);
		HeldLock asked = template.executeAsync("async", (lock) -> lock.fencingTokenAsync().thenApply((token) -> lock))
			.get(30, TimeUnit.SECONDS);
		assertReleased(asked, true);
	}

	/**
	 * Check a released lock: not in the context, not valid, and its token refused unless it was
	 * given during the call.
	 */
	private static void assertReleased(HeldLock lock, boolean tokenGiven) {
		assertThat(ZkLockContext.find(lock.key())).isEmpty();
		assertReleasedLock(lock, tokenGiven);
	}

	private static void assertReleasedLock(HeldLock lock, boolean tokenGiven) {
		assertThat(lock.isValid()).as("%s valid", lock).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::ensureValid);
		if (tokenGiven) {
			assertThat(lock.fencingToken()).isPositive();
			assertThat(lock.fencingTokenAsync()).isCompletedWithValue(lock.fencingToken());
		}
		else {
			assertThatIllegalStateException().as("token of %s first asked after the release", lock)
				.isThrownBy(lock::fencingToken);
			assertThat(lock.fencingTokenAsync()).isCompletedExceptionally();
		}
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
