package dev.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.LockTimeoutException;
import dev.zklock.ZkLockException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a {@link LockCallListener} is told of template calls and lost locks, and what the lock
 * engine logs when the connection changes.
 */
@EmbeddedZooKeeper
@Timeout(120)
@ExtendWith(OutputCaptureExtension.class)
class LockCallListenerTests {

	private ZooKeeperTestServer server;

	private LockTestSupport support;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final RecordingListener listener = new RecordingListener();

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
	void aCallThatRunsIsAcquiredThenEnded() {
		ZkLockTemplate template = this.support.template(this.support.client(), this.listener);
		long[] token = new long[1];
		String result = template.executeOrElse("'order:' + #id", List.of("order:2", "order:1"), LockMode.SHARED, null,
				(lock) -> {
					token[0] = lock.fencingToken();
					return "done";
				}, () -> "skipped");
		assertThat(result).isEqualTo("done");
		assertThat(this.listener.events).containsExactly("started 'order:' + #id [order:1, order:2] SHARED",
				"acquired order:2 " + token[0], "ended null");
	}

	@Test
	void theCallbacksExceptionIsWhatTheCallEndsWith() {
		ZkLockTemplate template = this.support.template(this.support.client(), this.listener);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> template.execute("failing", (lock) -> {
				throw new IllegalStateException("boom");
			}));
		assertThat(this.listener.events).hasSize(3).last().isEqualTo("ended IllegalStateException");
	}

	@Test
	void aTimeoutThatThrowsIsATimeoutAndOneThatReturnsIsASkip() throws Exception {
		ZkLockTemplate holder = this.support.template();
		ZkLockTemplate template = this.support.template(this.support.client(), this.listener);
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holding = this.executor.submit(() -> holder.execute("busy", (lock) -> {
			inside.countDown();
			return release.await(60, TimeUnit.SECONDS);
		}));
		try {
			assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
			assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(
					() -> template.execute("busy", LockMode.EXCLUSIVE, Duration.ofMillis(100), (lock) -> "never"));
			Optional<String> skipped = template.tryExecute("busy", LockMode.SHARED, Duration.ZERO, (lock) -> "never");
			assertThat(skipped).isEmpty();
		}
		finally {
			release.countDown();
		}
		holding.get(30, TimeUnit.SECONDS);
		assertThat(this.listener.events).containsExactly("started null [busy] EXCLUSIVE",
				"not acquired TIMEOUT LockTimeoutException", "started null [busy] SHARED", "not acquired SKIPPED null");
	}

	@Test
	void aFailedAcquisitionIsAnError() {
		ZkLockTemplate template = this.support.template(this.support.client(), this.listener);
		assertThatExceptionOfType(ZkLockException.class).isThrownBy(() -> template.execute("upgrade",
				LockMode.SHARED, null, (lock) -> template.execute("upgrade", (inner) -> "never")));
		assertThat(this.listener.events).contains("not acquired ERROR ZkLockException")
			.last()
			.isEqualTo("ended ZkLockException");
	}

	@Test
	void aLockLostWithTheSessionIsReportedAndLoggedWithItsKey(CapturedOutput output) throws Exception {
		CuratorFramework client = this.support.client(Duration.ofSeconds(4));
		ZkLockTemplate template = this.support.template(client, this.listener);
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holding = this.executor.submit(() -> template.execute("lost-key", (lock) -> {
			inside.countDown();
			return release.await(60, TimeUnit.SECONDS);
		}));
		assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
		this.support.expireSession(client);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.listener.events.contains("lost lost-key EXCLUSIVE"));
		release.countDown();
		assertThat(holding).failsWithin(Duration.ofSeconds(30)).withThrowableThat().havingCause()
				.isInstanceOf(LockLostException.class);
		assertThat(this.listener.events).last().isEqualTo("ended LockLostException");
		assertThat(output).containsPattern("ERROR .*Lock on key 'lost-key' held by thread '.*' was lost")
			.containsPattern("WARN .*ZooKeeper session LOST: 1 held lock\\(s\\) are lost");
	}

	@Test
	void aSuspendedConnectionIsLoggedAsAWarningEvenWithoutLocks(CapturedOutput output) throws Exception {
		CuratorFramework client = this.support.client(Duration.ofSeconds(10));
		this.support.template(client, this.listener);
		this.server.stop();
		try {
			await().atMost(Duration.ofSeconds(30))
				.until(() -> output.toString().contains("Connection to ZooKeeper SUSPENDED: 0 held lock(s)"));
			assertThat(output).containsPattern("WARN .*Connection to ZooKeeper SUSPENDED");
		}
		finally {
			this.server.restart();
		}
	}

	/**
	 * Records, in order, what it is told.
	 */
	static final class RecordingListener implements LockCallListener {

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		public LockCall callStarted(@Nullable String name, List<String> keys, LockMode mode) {
			this.events.add("started " + name + " " + keys + " " + mode);
			return new LockCall() {

				@Override
				public void acquired(HeldLock lock) {
					RecordingListener.this.events.add("acquired " + lock.key() + " " + lock.fencingToken());
				}

				@Override
				public void notAcquired(AcquisitionOutcome outcome, @Nullable Throwable error) {
					RecordingListener.this.events.add("not acquired " + outcome + " " + name(error));
				}

				@Override
				public void ended(@Nullable Throwable error) {
					RecordingListener.this.events.add("ended " + name(error));
				}

			};
		}

		@Override
		public void lockLost(String key, LockMode mode) {
			this.events.add("lost " + key + " " + mode);
		}

		private static String name(@Nullable Throwable error) {
			return (error != null) ? error.getClass().getSimpleName() : "null";
		}

	}

}
