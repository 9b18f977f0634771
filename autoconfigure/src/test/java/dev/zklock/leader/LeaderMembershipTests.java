package dev.zklock.leader;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.zklock.actuate.LeadershipHealthIndicator;
import dev.zklock.autoconfigure.ZooKeeperHealthAutoConfiguration;
import dev.zklock.micrometer.LeadershipMetrics;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The membership watch: a group with fewer participants than its minimum is reported by the
 * health indicator and the gauge, so that a missing standby is noticed.
 */
@EmbeddedZooKeeper
class LeaderMembershipTests {

	private static final String JOBS = "jobs";

	private static final Duration WAIT = Duration.ofSeconds(15);

	@Test
	void groupBelowItsMinimumIsReportedUntilEnoughInstancesTakePart(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			String[] properties = { "zklock.leader.groups=" + JOBS, "zklock.leader.min-participants." + JOBS + "=3" };
			Instance a = instances.start("a", WithHealth.class, properties);
			Instance b = instances.start("b", WithHealth.class, properties);
			LeadershipHealthIndicator health = a.bean(LeadershipHealthIndicator.class);
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			new LeadershipMetrics(registry, a.leadership(), Map.of(JOBS, 3)).afterSingletonsInstantiated();
			await().atMost(WAIT).until(() -> a.leadership().participants(JOBS).size() == 2);
			Health below = health.health();
			assertThat(below.getStatus()).isEqualTo(Status.UP);
			assertThat(below.getDetails()).containsEntry("belowMinimum", List.of(JOBS));
			assertThat(below.getDetails().get("groups")).isEqualTo(
					Map.of(JOBS, Map.of("minimum", 3, "participants", 2)));
			assertThat(gauge(registry)).isEqualTo(2);
			Instance c = instances.start("c", WithHealth.class, properties);
			await().atMost(WAIT).until(() -> c.leadership().participants(JOBS).size() == 3);
			assertThat(health.health().getDetails()).containsEntry("belowMinimum", List.of());
			assertThat(gauge(registry)).isEqualTo(3);
			b.close();
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(health.health().getDetails()).containsEntry("belowMinimum",
						List.of(JOBS)));
		}
	}

	@Test
	void withoutMinimumsThereIsNoLeadershipIndicator(ZooKeeperTestServer server, TestInfo test) throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", WithHealth.class, "zklock.leader.groups=" + JOBS);
			assertThat(a.context().getBeansOfType(LeadershipHealthIndicator.class)).isEmpty();
		}
	}

	private static double gauge(SimpleMeterRegistry registry) {
		return registry.get(LeadershipMetrics.PARTICIPANTS).tag("group", JOBS).tag("minimum", "3").gauge().value();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(ZooKeeperHealthAutoConfiguration.class)
	static class WithHealth {

	}

}
