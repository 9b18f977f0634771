package dev.zklock.lock;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.actuate.ZooKeeperHealthIndicator;
import dev.zklock.micrometer.LockGauges;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock held past {@code zklock.lock.long-hold-warning} is reported once, with its key, call and
 * the holding thread's stack; the oldest hold's gauge and the health details show it, the health
 * staying UP.
 */
@EmbeddedZooKeeper
@Timeout(120)
@ExtendWith(OutputCaptureExtension.class)
class LongHoldWarningsTests {

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private LockTestSupport support;

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.support = new LockTestSupport(server);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		this.support.close();
	}

	@Test
	void aLongHoldIsWarnedOnceWithItsKeyCallAndStack(CapturedOutput output) throws Exception {
		ZkLockTemplate template = this.support.template();
		LongHoldWarnings warnings = new LongHoldWarnings(template, Duration.ofSeconds(2));
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new LockGauges(template).bindTo(registry);
		ZooKeeperHealthIndicator health = new ZooKeeperHealthIndicator(this.support.client(), warnings);
		CountDownLatch holds = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(1);
		Future<Object> call = this.threads.submit(() -> template.executeOrElse("nightly-export", List.of("export:1"),
				LockMode.EXCLUSIVE, null, (lock) -> holdUntil(holds, done), () -> null));
		assertThat(holds.await(30, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(warnings.current()).as("not yet past the threshold").isEmpty();
			warnings.check();
			assertThat(output.getOut()).doesNotContain("export:1");
			await().atMost(Duration.ofSeconds(10)).until(() -> !warnings.current().isEmpty());
			LongHold hold = warnings.current().get(0);
			assertThat(hold.key()).isEqualTo("export:1");
			assertThat(hold.call()).isEqualTo("nightly-export");
			assertThat(hold.stack()).anyMatch((frame) -> frame.getMethodName().equals("holdUntil"));
			warnings.check();
			warnings.check();
			assertThat(output.getOut().split("Lock on key 'export:1' held for", -1)).as("one WARN").hasSize(2);
			assertThat(output.getOut()).contains("by call nightly-export on thread '").contains("LongHoldWarningsTests.holdUntil(LongHoldWarningsTests.java:");
			assertThat(registry.get(LockGauges.OLDEST_HOLD).gauge().value()).isGreaterThanOrEqualTo(2.0);
			Health reported = health.health();
			assertThat(reported.getStatus()).isEqualTo(Status.UP);
			@SuppressWarnings("unchecked")
			List<Map<String, Object>> longHolds = (List<Map<String, Object>>) reported.getDetails().get("longHolds");
			assertThat(longHolds).singleElement().satisfies((detail) -> {
				assertThat(detail).containsEntry("key", "export:1").containsEntry("call", "nightly-export");
			});
		}
		finally {
			done.countDown();
		}
		call.get(30, TimeUnit.SECONDS);
		assertThat(warnings.current()).isEmpty();
		assertThat(registry.get(LockGauges.OLDEST_HOLD).gauge().value()).isZero();
	}

	@Test
	void twoAsynchronousHoldsOfOneKeyAreEachWarned(CapturedOutput output) throws Exception {
		ZkLockTemplate template = this.support.template();
		LongHoldWarnings warnings = new LongHoldWarnings(template, Duration.ofMillis(500));
		CompletableFuture<Object> done = new CompletableFuture<>();
		CountDownLatch holding = new CountDownLatch(2);
		List<CompletableFuture<Object>> calls = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			calls.add(template.executeAsync(List.of("report:1"), LockMode.SHARED, null, (lock) -> {
				holding.countDown();
				return done;
			}));
		}
		assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> warnings.current().size() == 2);
			warnings.check();
			warnings.check();
			assertThat(output.getOut().split("Lock on key 'report:1' held for", -1)).as("one WARN each").hasSize(3);
		}
		finally {
			done.complete("done");
		}
		for (CompletableFuture<Object> call : calls) {
			call.get(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void aCheckThatFailsDoesNotStopTheNextOnes(CapturedOutput output) throws Exception {
		ZkLockTemplate template = this.support.template();
		AtomicInteger checks = new AtomicInteger();
		LongHoldWarnings warnings = new LongHoldWarnings(template, Duration.ofMillis(40), new Clock() {

			@Override
			public ZoneId getZone() {
				return ZoneOffset.UTC;
			}

			@Override
			public Clock withZone(ZoneId zone) {
				return this;
			}

			@Override
			public Instant instant() {
				if (checks.incrementAndGet() == 1) {
					throw new AssertionError("a failure no check expects");
				}
				return Instant.now();
			}

		});
		warnings.start();
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> checks.get() >= 3);
			assertThat(output.getOut()).contains("Could not look at long holds");
		}
		finally {
			warnings.close();
		}
	}

	private static Object holdUntil(CountDownLatch holds, CountDownLatch done) throws InterruptedException {
		holds.countDown();
		return done.await(60, TimeUnit.SECONDS);
	}

}
