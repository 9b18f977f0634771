package dev.zklock.shedlock;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.zklock.ZkLockTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What ShedLock's times mean on session-bound locks, seen from another instance (ShedLock's own
 * tests use one provider): a holder that dies releases at once, {@code lockAtMostFor} ends a hung
 * holder's lock, {@code lockAtLeastFor} keeps the lock of a short job.
 */
class ZkLockProviderTests {

	private static TestingServer server;

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer();
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void aHolderThatDiesReleasesAtOnceWhateverLockAtMostForSays() throws Exception {
		try (Instance a = new Instance(); Instance b = new Instance()) {
			assertThat(a.provider.lock(config("report", Duration.ofMinutes(10), Duration.ZERO))).isPresent();
			assertThat(b.provider.lock(config("report", Duration.ofMinutes(10), Duration.ZERO))).isEmpty();
			KillSession.kill(a.client.getZookeeperClient().getZooKeeper());
			Optional<SimpleLock> taken = Awaitility.await()
				.atMost(Duration.ofSeconds(20))
				.until(() -> b.provider.lock(config("report", Duration.ofMinutes(10), Duration.ZERO)),
						Optional::isPresent);
			taken.get().unlock();
		}
	}

	@Test
	void lockAtMostForEndsTheLockOfAHolderThatHangs() throws Exception {
		try (Instance a = new Instance(); Instance b = new Instance()) {
			SimpleLock hung = a.provider.lock(config("report", Duration.ofMillis(500), Duration.ZERO)).orElseThrow();
			assertThat(b.provider.lock(config("report", Duration.ofMinutes(10), Duration.ZERO))).isEmpty();
			Optional<SimpleLock> taken = Awaitility.await()
				.atMost(Duration.ofSeconds(10))
				.until(() -> b.provider.lock(config("report", Duration.ofMinutes(10), Duration.ZERO)),
						Optional::isPresent);
			// The hung job's late unlock does not touch the lock another instance holds now.
			hung.unlock();
			assertThat(a.provider.lock(config("report", Duration.ofMinutes(10), Duration.ZERO))).isEmpty();
			taken.get().unlock();
			assertThat(a.provider.lock(config("report", Duration.ofMinutes(10), Duration.ZERO))).isPresent();
		}
	}

	@Test
	void lockAtLeastForKeepsTheLockOfAShortJobFromOtherInstances() throws Exception {
		try (Instance a = new Instance(); Instance b = new Instance()) {
			LockConfiguration tick = config("report", Duration.ofMinutes(10), Duration.ofSeconds(1));
			Instant leastUntil = tick.getLockAtLeastUntil();
			a.provider.lock(tick).orElseThrow().unlock();
			Optional<SimpleLock> early = b.provider.lock(config("report", Duration.ofMinutes(10), Duration.ZERO));
			if (ClockProvider.now().isBefore(leastUntil)) {
				assertThat(early).isEmpty();
			}
			Optional<SimpleLock> taken = Awaitility.await()
				.atMost(Duration.ofSeconds(10))
				.until(() -> b.provider.lock(config("report", Duration.ofMinutes(10), Duration.ZERO)),
						Optional::isPresent);
			assertThat(ClockProvider.now()).isAfterOrEqualTo(leastUntil);
			taken.get().unlock();
		}
	}

	private static LockConfiguration config(String name, Duration lockAtMostFor, Duration lockAtLeastFor) {
		return new LockConfiguration(ClockProvider.now(), name, lockAtMostFor, lockAtLeastFor);
	}

	/**
	 * An application instance: its client, template and provider.
	 */
	private static final class Instance implements AutoCloseable {

		private final CuratorFramework client;

		private final ZkLockTemplate template;

		private final ZkLockProvider provider;

		Instance() {
			this.client = CuratorFrameworkFactory.newClient(server.getConnectString(), 4000, 4000, new RetryOneTime(100));
			this.client.start();
			this.template = new ZkLockTemplate(this.client, "/shedlock", Duration.ofSeconds(10), false);
			this.provider = new ZkLockProvider(this.template);
		}

		@Override
		public void close() {
			this.provider.close();
			this.template.close();
			this.client.close();
		}

	}

}
