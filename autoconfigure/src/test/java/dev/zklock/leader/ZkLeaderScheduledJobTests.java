package dev.zklock.leader;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.annotation.ZkLeader;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @ZkLeader @Scheduled} jobs on three application instances.
 */
@EmbeddedZooKeeper
class ZkLeaderScheduledJobTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Test
	void methodLevelJobTicksOnlyOnTheLeaderAndMovesOnShutdown(ZooKeeperTestServer server, TestInfo test) {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", MethodLevelJobConfiguration.class);
			Instance b = instances.start("b", MethodLevelJobConfiguration.class);
			Instance c = instances.start("c", MethodLevelJobConfiguration.class);
			assertTicksOnlyOnLeaderAndMoveOnShutdown(a, b, c);
		}
	}

	@Test
	void classLevelJobTicksOnlyOnTheLeaderAndMovesOnShutdown(ZooKeeperTestServer server, TestInfo test) {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", ClassLevelJobConfiguration.class);
			Instance b = instances.start("b", ClassLevelJobConfiguration.class);
			Instance c = instances.start("c", ClassLevelJobConfiguration.class);
			assertTicksOnlyOnLeaderAndMoveOnShutdown(a, b, c);
		}
	}

	@Test
	void electionIsJoinedBeforeTheFirstScheduledRun(ZooKeeperTestServer server, TestInfo test) {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", RunOnceConfiguration.class);
			// The job runs once at startup and then not for an hour: skipped, it would never run.
			await().atMost(WAIT).until(() -> a.bean(JobCounters.class).ticks.get() == 1);
		}
	}

	private void assertTicksOnlyOnLeaderAndMoveOnShutdown(Instance a, Instance b, Instance c) {
		JobCounters countersA = a.bean(JobCounters.class);
		JobCounters countersB = b.bean(JobCounters.class);
		JobCounters countersC = c.bean(JobCounters.class);
		// Every scheduler has run its tasks many times, so the non-leaders had every chance to tick.
		await().atMost(WAIT)
			.until(() -> countersA.ticks.get() >= 10 && countersB.heartbeats.get() >= 10
					&& countersC.heartbeats.get() >= 10);
		assertThat(countersB.ticks).hasValue(0);
		assertThat(countersC.ticks).hasValue(0);
		long start = System.nanoTime();
		a.close();
		await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> countersB.ticks.get() > 0);
		assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("milliseconds to the first tick on b")
			.isLessThan(1000);
		int heartbeats = countersC.heartbeats.get();
		await().atMost(WAIT).until(() -> countersC.heartbeats.get() >= heartbeats + 10);
		assertThat(countersC.ticks).hasValue(0);
	}

	static class JobCounters {

		final AtomicInteger ticks = new AtomicInteger();

		final AtomicInteger heartbeats = new AtomicInteger();

	}

	static class MethodLevelJob {

		private final JobCounters counters;

		MethodLevelJob(JobCounters counters) {
			this.counters = counters;
		}

		@ZkLeader("purge")
		@Scheduled(fixedDelay = 20)
		public void purge() {
			this.counters.ticks.incrementAndGet();
		}

		@Scheduled(fixedDelay = 20)
		public void heartbeat() {
			this.counters.heartbeats.incrementAndGet();
		}

	}

	@ZkLeader("reports")
	static class ClassLevelJob {

		private final JobCounters counters;

		ClassLevelJob(JobCounters counters) {
			this.counters = counters;
		}

		@Scheduled(fixedDelay = 20)
		public void report() {
			this.counters.ticks.incrementAndGet();
		}

	}

	static class Heartbeat {

		private final JobCounters counters;

		Heartbeat(JobCounters counters) {
			this.counters = counters;
		}

		@Scheduled(fixedDelay = 20)
		public void beat() {
			this.counters.heartbeats.incrementAndGet();
		}

	}

	static class RunOnceJob {

		private final JobCounters counters;

		RunOnceJob(JobCounters counters) {
			this.counters = counters;
		}

		@ZkLeader("once")
		@Scheduled(initialDelay = 0, fixedDelay = 3_600_000)
		public void run() {
			this.counters.ticks.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class MethodLevelJobConfiguration {

		@Bean
		JobCounters jobCounters() {
			return new JobCounters();
		}

		@Bean
		MethodLevelJob methodLevelJob(JobCounters jobCounters) {
			return new MethodLevelJob(jobCounters);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class ClassLevelJobConfiguration {

		@Bean
		JobCounters jobCounters() {
			return new JobCounters();
		}

		@Bean
		ClassLevelJob classLevelJob(JobCounters jobCounters) {
			return new ClassLevelJob(jobCounters);
		}

		@Bean
		Heartbeat heartbeat(JobCounters jobCounters) {
			return new Heartbeat(jobCounters);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class RunOnceConfiguration {

		@Bean
		JobCounters jobCounters() {
			return new JobCounters();
		}

		@Bean
		RunOnceJob runOnceJob(JobCounters jobCounters) {
			return new RunOnceJob(jobCounters);
		}

	}

}
