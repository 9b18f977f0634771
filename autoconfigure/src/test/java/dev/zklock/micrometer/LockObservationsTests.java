package dev.zklock.micrometer;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;

import dev.zklock.ZkLockTemplate;
import dev.zklock.lock.LockSettings;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockTimeoutException;
import dev.zklock.ZkLockContext;
import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZkLockObservationAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Observations of lock waits and locked calls, against a real ZooKeeper server, recorded by a
 * {@link TestObservationRegistry} (which also checks that every observation is started, scoped
 * and stopped properly).
 */
@EmbeddedZooKeeper
@Timeout(120)
class LockObservationsTests {

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void tearDown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	private ApplicationContextRunner runner(ZooKeeperTestServer server) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkLockObservationAutoConfiguration.class))
			.withBean(OrderService.class)
			.withPropertyValues("zklock.connect-string=" + server.getConnectString());
	}

	@Test
	void theWaitAndTheLockedCallAreObservedAndTheCallsOwnWorkIsItsChild(ZooKeeperTestServer server) {
		TestObservationRegistry registry = TestObservationRegistry.create();
		runner(server).withBean(ObservationRegistry.class, () -> registry).run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			long[] token = new long[1];
			Observation request = Observation.start("request", registry);
			try (Observation.Scope scope = request.openScope()) {
				orders.order("7", () -> {
					token[0] = ZkLockContext.current().fencingToken();
					return Observation.createNotStarted("work", registry).observe(() -> "done");
				});
			}
			request.stop();
			TestObservationRegistryAssert.assertThat(registry)
				.hasNumberOfObservationsWithNameEqualTo(LockObservations.ACQUIRE, 1)
				.hasObservationWithNameEqualTo(LockObservations.ACQUIRE)
				.that()
				.hasContextualNameEqualTo("zklock acquire")
				.hasLowCardinalityKeyValue("zklock.lock.mode", "exclusive")
				.hasLowCardinalityKeyValue("zklock.lock.outcome", "acquired")
				.hasHighCardinalityKeyValue("zklock.lock.keys", "order:7")
				.hasHighCardinalityKeyValue("zklock.lock.name", OrderService.ORDER_KEY)
				.hasParentObservationContextMatching((parent) -> parent.getName().equals("request"))
				.doesNotHaveError()
				.hasBeenStopped();
			TestObservationRegistryAssert.assertThat(registry)
				.hasObservationWithNameEqualTo(LockObservations.CALL)
				.that()
				.hasContextualNameEqualTo("zklock locked")
				.hasLowCardinalityKeyValue("zklock.lock.mode", "exclusive")
				.hasHighCardinalityKeyValue("zklock.lock.fencing-token", Long.toString(token[0]))
				.hasParentObservationContextMatching((parent) -> parent.getName().equals("request"))
				.hasBeenStopped();
			TestObservationRegistryAssert.assertThat(registry)
				.hasObservationWithNameEqualTo("work")
				.that()
				.hasParentObservationContextMatching((parent) -> parent.getName().equals(LockObservations.CALL));
			assertThat(registry.getCurrentObservation()).isNull();
		});
	}

	@Test
	void aTimedOutWaitIsAnObservedErrorAndNoCallFollows(ZooKeeperTestServer server) {
		TestObservationRegistry registry = TestObservationRegistry.create();
		runner(server).withBean(ObservationRegistry.class, () -> registry).run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			CountDownLatch inside = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			Future<Boolean> holder = this.executor.submit(() -> template.execute("order:8", (lock) -> {
				inside.countDown();
				return release.await(60, TimeUnit.SECONDS);
			}));
			try {
				assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
				assertThatExceptionOfType(LockTimeoutException.class)
					.isThrownBy(() -> orders.order("8", () -> "never"));
				assertThat(orders.orderUnlessBusy("8", () -> "never")).isNull();
			}
			finally {
				release.countDown();
			}
			assertThat(holder.get(30, TimeUnit.SECONDS)).isTrue();
			TestObservationRegistryAssert.assertThat(registry)
				.hasNumberOfObservationsWithNameEqualTo(LockObservations.ACQUIRE, 3)
				.hasNumberOfObservationsWithNameEqualTo(LockObservations.CALL, 1)
				.hasAnObservation((observation) -> observation.hasNameEqualTo(LockObservations.ACQUIRE)
					.hasLowCardinalityKeyValue("zklock.lock.outcome", "timeout")
					.assertThatError()
					.isInstanceOf(LockTimeoutException.class))
				.hasAnObservation((observation) -> observation.hasNameEqualTo(LockObservations.ACQUIRE)
					.hasLowCardinalityKeyValue("zklock.lock.outcome", "skipped")
					.doesNotHaveError());
		});
	}

	@Test
	void noObservationsWithoutARegistry(ZooKeeperTestServer server) {
		runner(server).run((context) -> assertThat(context).hasNotFailed()
			.hasSingleBean(ZkLockTemplate.class)
			.doesNotHaveBean(LockObservations.class));
	}


	@Test
	void aHandedOffCallThatDoesNotAskForItsTokenPaysNoWriteForItsTrace(ZooKeeperTestServer server) throws Exception {
		TestObservationRegistry registry = TestObservationRegistry.create();
		try (CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(),
				new ExponentialBackoffRetry(50, 3));
				CuratorFramework observer = CuratorFrameworkFactory.newClient(server.getConnectString(),
						new ExponentialBackoffRetry(50, 3))) {
			client.start();
			observer.start();
			client.blockUntilConnected(10, TimeUnit.SECONDS);
			observer.blockUntilConnected(10, TimeUnit.SECONDS);
			try (ZkLockTemplate template = new ZkLockTemplate(client, "/zklock/locks", Duration.ofSeconds(10), false,
					new LockObservations(registry), LockSettings.DEFAULTS)) {
				CountDownLatch inside = new CountDownLatch(1);
				CountDownLatch release = new CountDownLatch(1);
				Future<?> first = this.executor.submit(() -> template.execute("traced", (lock) -> {
					inside.countDown();
					return release.await(20, TimeUnit.SECONDS);
				}));
				assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
				Future<?> second = this.executor.submit(() -> template.execute("traced", (lock) -> "handed off"));
				await().atMost(Duration.ofSeconds(10)).until(() -> !template.waitingCalls().isEmpty());
				long before = zxidOfAWriteNow(observer);
				release.countDown();
				first.get(20, TimeUnit.SECONDS);
				second.get(20, TimeUnit.SECONDS);
				// The node's delete, and no token write for the handed-off call's trace.
				assertThat(zxidOfAWriteNow(observer) - before - 1).isEqualTo(1);
				assertThat(template.lockCounts().handoffs()).isEqualTo(1);
				TestObservationRegistryAssert.assertThat(registry)
					.hasNumberOfObservationsWithNameEqualTo(LockObservations.CALL, 2);
			}
		}
	}

	private static long zxidOfAWriteNow(CuratorFramework client) throws Exception {
		Stat stat = new Stat();
		client.create().storingStatIn(stat).withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath("/zxid-probe-");
		return stat.getCzxid();
	}

}
