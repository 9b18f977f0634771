package dev.zklock.autoconfigure.shedlock;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;

import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.EmbeddedZooKeeperInitializer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application's {@code @SchedulerLock} job, with ShedLock's own Spring support and no
 * {@code LockProvider} bean of its own, on two instances at once: each tick (a cron second) runs
 * on one of them only.
 */
@EmbeddedZooKeeper
class SchedulerLockJobsTests {

	private static final Map<Instant, AtomicInteger> runsPerTick = new ConcurrentHashMap<>();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(EmbeddedZooKeeperInitializer.of(SchedulerLockJobsTests.class))
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkLockShedLockAutoConfiguration.class))
		.withUserConfiguration(Jobs.class);

	@Test
	void eachTickRunsOnOneInstance() {
		this.contextRunner.run((first) -> this.contextRunner.run((second) -> {
			await().atMost(Duration.ofSeconds(30)).until(() -> runsPerTick.size() >= 4);
		}));
		assertThat(runsPerTick).allSatisfy((tick, runs) -> assertThat(runs.get()).as("runs of %s", tick).isOne());
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@EnableSchedulerLock(defaultLockAtMostFor = "10s")
	static class Jobs {

		@Scheduled(cron = "* * * * * *")
		@SchedulerLock(name = "report", lockAtLeastFor = "500ms")
		void report() {
			runsPerTick.computeIfAbsent(Instant.now().truncatedTo(ChronoUnit.SECONDS), (tick) -> new AtomicInteger())
				.incrementAndGet();
		}

	}

}
