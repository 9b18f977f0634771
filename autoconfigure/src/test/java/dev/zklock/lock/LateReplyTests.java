package dev.zklock.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.LockTimeoutException;
import dev.zklock.ZkLockException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.ChaosProxy;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A call's thread sends the first-use transaction and the release's transaction itself, and
 * waits for their replies inside ZooKeeper's client, which has no deadline of its own: the
 * call's deadline interrupts that wait. Here every byte between the instance and the server takes
 * {@link #DELAY} each way (the connection stays up: the client's pings are answered well within
 * its read timeout), so no reply comes before twice that. A call still returns at its deadline,
 * an interrupt of the caller still ends its wait and is still seen, and what the transactions do
 * on the server after their callers stopped waiting is cleaned up: no node of the instance is
 * left, and another instance gets the key.
 */
@EmbeddedZooKeeper
@Timeout(120)
class LateReplyTests {

	private static final Duration DELAY = Duration.ofSeconds(4);

	/**
	 * Sooner than any reply can come (twice {@link #DELAY}), later than the longest wait of the
	 * calls here (1 s for a call's first answer, 2 s for a release's).
	 */
	private static final Duration SOONER_THAN_A_REPLY = Duration.ofMillis(6500);

	private LockTestSupport support;

	private CuratorFramework observer;

	private ChaosProxy proxy;

	private ZkLockTemplate instance;

	@BeforeEach
	void setUp(ZooKeeperTestServer server) throws Exception {
		this.support = new LockTestSupport(server);
		this.observer = this.support.client();
		this.proxy = ChaosProxy.start(server.getConnectString());
		this.instance = this.support.template(this.support.client(this.proxy.connectString(), Duration.ofSeconds(30)),
				LockSettings.DEFAULTS);
		// Connected, and the base node made, before the link slows down.
		this.instance.execute("warm", LockMode.EXCLUSIVE, Duration.ofSeconds(10), (lock) -> null);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.proxy.delay(Duration.ZERO);
		this.support.close();
		this.proxy.close();
	}

	@Test
	void aFirstUseWhoseReplyIsLateEndsAtTheCallsDeadlineAndItsNodeIsRemoved() throws Exception {
		this.proxy.delay(DELAY);
		AtomicBoolean ran = new AtomicBoolean();
		long start = System.nanoTime();
		assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> this.instance.execute("late",
				LockMode.EXCLUSIVE, Duration.ofMillis(300), (lock) -> ran.getAndSet(true)));
		assertThat(millisSince(start)).isLessThan(SOONER_THAN_A_REPLY.toMillis());
		assertThat(ran).isFalse();
		this.proxy.delay(Duration.ZERO);
		// The transaction was applied after its caller stopped waiting: the read sent behind it
		// found its node, and the node was deleted.
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(LockTestSupport.lockNodes(this.observer, "late")).isEmpty());
		assertThat(anotherInstanceRuns("late")).isTrue();
	}

	@Test
	void aReleaseWhoseReplyIsLateReturnsWithinTheReleaseWaitAndItsNodesGo() throws Exception {
		long[] released = new long[1];
		this.instance.execute("slow-release", LockMode.EXCLUSIVE, Duration.ofSeconds(10), (lock) -> {
			this.proxy.delay(DELAY);
			released[0] = System.nanoTime();
			return null;
		});
		assertThat(millisSince(released[0])).isLessThan(SOONER_THAN_A_REPLY.toMillis());
		this.proxy.delay(Duration.ZERO);
		String keyPath = ZKPaths.makePath(LockTestSupport.BASE, LockKeys.encode("slow-release"));
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(this.observer.checkExists().forPath(keyPath)).isNull());
		assertThat(anotherInstanceRuns("slow-release")).isTrue();
	}

	@Test
	void anInterruptOfACallWaitingForItsFirstUseEndsItsWaitAndIsSeen() throws Exception {
		this.proxy.delay(DELAY);
		CompletableFuture<Throwable> outcome = new CompletableFuture<>();
		AtomicBoolean interruptedAfter = new AtomicBoolean();
		Thread caller = new Thread(() -> {
			try {
				this.instance.execute("interrupted", LockMode.EXCLUSIVE, Duration.ofSeconds(60), (lock) -> "ran");
				outcome.complete(null);
			}
			catch (Throwable ex) {
				interruptedAfter.set(Thread.currentThread().isInterrupted());
				outcome.complete(ex);
			}
		}, "interrupted caller");
		long start = System.nanoTime();
		caller.start();
		Thread.sleep(500);
		caller.interrupt();
		Throwable thrown = outcome.get(30, TimeUnit.SECONDS);
		assertThat(millisSince(start)).isLessThan(SOONER_THAN_A_REPLY.toMillis());
		assertThat(thrown).isInstanceOf(ZkLockException.class).hasMessageContaining("Interrupted");
		assertThat(interruptedAfter).as("the caller's thread is still interrupted").isTrue();
		caller.join(10_000);
		this.proxy.delay(Duration.ZERO);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(LockTestSupport.lockNodes(this.observer, "interrupted")).isEmpty());
		assertThat(anotherInstanceRuns("interrupted")).isTrue();
	}

	private boolean anotherInstanceRuns(String key) {
		AtomicBoolean ran = new AtomicBoolean();
		this.support.template().execute(key, LockMode.EXCLUSIVE, Duration.ofSeconds(10), (lock) -> ran.getAndSet(true));
		return ran.get();
	}

	private static long millisSince(long start) {
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
	}

}
