package dev.zklock.micrometer;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.ZkLeadership;
import dev.zklock.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zklock.autoconfigure.ZkLockMetricsAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leadership metrics of two application instances in one group, against a real ZooKeeper
 * server: the gauge follows the leadership and the counter counts its changes.
 */
@EmbeddedZooKeeper
@Timeout(120)
class LeadershipMetricsTests {

	private static final String GROUP = "reports";

	@Test
	void followLeadershipAcrossAHandover(ZooKeeperTestServer server) {
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
					ZkLockMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.leader.groups=" + GROUP);
		runner.withPropertyValues("zklock.leader.participant-id=blue").run((blue) -> {
			await().atMost(Duration.ofSeconds(30)).until(() -> leader(blue) == 1.0);
			await().atMost(Duration.ofSeconds(30)).until(() -> changes(blue, "granted") == 1.0);
			runner.withPropertyValues("zklock.leader.participant-id=green").run((green) -> {
				await().atMost(Duration.ofSeconds(30))
					.until(() -> green.getBean(ZkLeadership.class).participants(GROUP).size() == 2);
				assertThat(leader(green)).isZero();
				assertThat(changes(green, "granted")).isZero();

				assertThat(blue.getBean(ZkLeadership.class).yieldLeadership(GROUP)).isTrue();

				await().atMost(Duration.ofSeconds(30)).until(() -> leader(green) == 1.0);
				assertThat(leader(blue)).isZero();
				await().atMost(Duration.ofSeconds(30)).until(() -> changes(blue, "revoked") == 1.0);
				await().atMost(Duration.ofSeconds(30)).until(() -> changes(green, "granted") == 1.0);
				assertThat(changes(blue, "granted")).isOne();
				assertThat(changes(green, "revoked")).isZero();
			});
		});
	}

	private static double leader(ApplicationContext context) {
		return context.getBean(MeterRegistry.class).get(LeadershipMetrics.LEADER).tag("group", GROUP).gauge().value();
	}

	private static double changes(ApplicationContext context, String change) {
		Counter counter = context.getBean(MeterRegistry.class)
			.find(LeadershipMetrics.CHANGES)
			.tags("group", GROUP, "change", change)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

}
