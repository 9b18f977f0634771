package dev.zklock.micrometer;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.LockTimeoutException;
import dev.zklock.ZkLockException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZkLockMetricsAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Lock metrics in an application with Micrometer's auto-configured registry, against a real
 * ZooKeeper server: each meter moves as the calls say.
 */
@EmbeddedZooKeeper
@Timeout(120)
class LockMetricsTests {

	private static final AutoConfigurations ZKLOCK = AutoConfigurations.of(ZooKeeperAutoConfiguration.class,
			ZkLockAutoConfiguration.class, ZkLockMetricsAutoConfiguration.class);

	private static final AutoConfigurations MICROMETER = AutoConfigurations.of(MetricsAutoConfiguration.class,
			CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void tearDown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	private ApplicationContextRunner runner(ZooKeeperTestServer server) {
		return new ApplicationContextRunner().withConfiguration(ZKLOCK)
			.withConfiguration(MICROMETER)
			.withBean(OrderService.class)
			.withPropertyValues("zklock.connect-string=" + server.getConnectString());
	}

	@Test
	void waitsAreTimedByModeAndOutcomeAndHoldsByMode(ZooKeeperTestServer server) {
		runner(server).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			OrderService orders = context.getBean(OrderService.class);
			assertThat(gauge(registry, LockGauges.HELD)).isZero();
			assertThat(gauge(registry, LockGauges.WAITING)).isZero();
			CountDownLatch inside = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			Future<Long> holder = this.executor.submit(() -> orders.order("1", () -> {
				long entered = System.nanoTime();
				inside.countDown();
				release.await(60, TimeUnit.SECONDS);
				return System.nanoTime() - entered;
			}));
			Future<String> waiter;
			try {
				assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
				assertThat(gauge(registry, LockGauges.HELD)).isEqualTo(1);
				assertThatExceptionOfType(LockTimeoutException.class)
					.isThrownBy(() -> orders.order("1", () -> "never"));
				assertThat(orders.orderUnlessBusy("1", () -> "never")).isNull();
				waiter = this.executor.submit(
						() -> template.execute("order:1", LockMode.SHARED, Duration.ofSeconds(60), (lock) -> "read"));
				await().atMost(Duration.ofSeconds(30)).until(() -> gauge(registry, LockGauges.WAITING) == 1);
			}
			finally {
				release.countDown();
			}
			long heldNanos = holder.get(30, TimeUnit.SECONDS);
			assertThat(waiter.get(30, TimeUnit.SECONDS)).isEqualTo("read");
			assertThat(gauge(registry, LockGauges.HELD)).isZero();
			assertThat(gauge(registry, LockGauges.WAITING)).isZero();
			assertThatExceptionOfType(ZkLockException.class).isThrownBy(() -> template.execute("upgrade",
					LockMode.SHARED, null, (lock) -> template.execute("upgrade", (inner) -> "never")));

			assertThat(wait(registry, "exclusive", "acquired").count()).isOne();
			Timer timeout = wait(registry, "exclusive", "timeout");
			assertThat(timeout.count()).isOne();
			assertThat(timeout.totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(100);
			assertThat(wait(registry, "exclusive", "skipped").count()).isOne();
			assertThat(wait(registry, "exclusive", "error").count()).isOne();
			assertThat(wait(registry, "shared", "acquired").count()).isEqualTo(2);
			assertThat(wait(registry, "shared", "timeout").count()).isZero();
			Timer exclusiveHold = hold(registry, "exclusive");
			assertThat(exclusiveHold.count()).isOne();
			assertThat(exclusiveHold.totalTime(TimeUnit.NANOSECONDS)).isGreaterThanOrEqualTo(heldNanos);
			assertThat(hold(registry, "shared").count()).isEqualTo(2);
			assertThat(registry.find(LockMetrics.WAIT).meters()).hasSize(8)
				.allSatisfy((meter) -> assertThat(meter.getId().getTag("key")).isNull());
		});
	}

	@Test
	void aLockLostWithTheSessionIsCounted(ZooKeeperTestServer server) {
		runner(server).withPropertyValues("zklock.session-timeout=4s").run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			assertThat(lost(registry, "exclusive")).isZero();
			CountDownLatch inside = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			Future<Boolean> holder = this.executor.submit(() -> template.execute("to-lose", (lock) -> {
				inside.countDown();
				return release.await(60, TimeUnit.SECONDS);
			}));
			try {
				assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
				Sessions.expire(context.getBean(CuratorFramework.class), server.getConnectString());
				await().atMost(Duration.ofSeconds(30)).until(() -> lost(registry, "exclusive") == 1);
			}
			finally {
				release.countDown();
			}
			assertThat(holder).failsWithin(Duration.ofSeconds(30))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(LockLostException.class);
			assertThat(lost(registry, "shared")).isZero();
			assertThat(hold(registry, "exclusive").count()).isOne();
			assertThat(gauge(registry, LockGauges.HELD)).isZero();
		});
	}

	@Test
	void theKeyExpressionCanBeATagWithABoundedNumberOfValues(ZooKeeperTestServer server) {
		runner(server).withPropertyValues("zklock.metrics.key-tag=expression", "zklock.metrics.max-key-tags=2")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				OrderService orders = context.getBean(OrderService.class);
				orders.order("1", () -> "done");
				orders.order("2", () -> "done");
				orders.invoice("1", () -> "done");
				context.getBean(ZkLockTemplate.class).execute("unnamed", (lock) -> "done");
				assertThat(keyedWait(registry, OrderService.ORDER_KEY).count()).isEqualTo(2);
				assertThat(keyedWait(registry, OrderService.INVOICE_KEY).count()).isOne();
				assertThat(keyedWait(registry, "other").count()).isOne();
				assertThat(registry.find(LockMetrics.WAIT).tag("key", "none").meters()).isEmpty();
				assertThat(registry.find(LockMetrics.WAIT).meters()).extracting((meter) -> meter.getId().getTag("key"))
					.containsOnly(OrderService.ORDER_KEY, OrderService.INVOICE_KEY, "other");
				assertThat(registry.get(LockMetrics.HOLD).tags("key", OrderService.ORDER_KEY, "mode", "exclusive")
					.timer()
					.count()).isEqualTo(2);
			});
	}

	@Test
	void unnamedTemplateCallsAreTaggedNone(ZooKeeperTestServer server) {
		runner(server).withPropertyValues("zklock.metrics.key-tag=expression").run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			context.getBean(ZkLockTemplate.class).execute("unnamed", (lock) -> "done");
			assertThat(keyedWait(registry, "none").count()).isOne();
		});
	}

	@Test
	void noMetricsWithoutARegistryOrMicrometer(ZooKeeperTestServer server) {
		new ApplicationContextRunner().withConfiguration(ZKLOCK)
			.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ZkLockTemplate.class)
				.doesNotHaveBean(LockMetrics.class)
				.doesNotHaveBean(LockGauges.class));
		new ApplicationContextRunner().withConfiguration(ZKLOCK)
			.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ZkLockTemplate.class)
				.doesNotHaveBean(LockMetrics.class));
	}

	private static double gauge(MeterRegistry registry, String name) {
		return registry.get(name).gauge().value();
	}

	private static Timer wait(MeterRegistry registry, String mode, String outcome) {
		return registry.get(LockMetrics.WAIT).tags("mode", mode, "outcome", outcome).timer();
	}

	private static Timer keyedWait(MeterRegistry registry, String key) {
		return registry.get(LockMetrics.WAIT).tags("key", key, "mode", "exclusive", "outcome", "acquired").timer();
	}

	private static Timer hold(MeterRegistry registry, String mode) {
		return registry.get(LockMetrics.HOLD).tags("mode", mode).timer();
	}

	private static double lost(MeterRegistry registry, String mode) {
		return registry.get(LockMetrics.LOST).tags("mode", mode).counter().count();
	}

}
