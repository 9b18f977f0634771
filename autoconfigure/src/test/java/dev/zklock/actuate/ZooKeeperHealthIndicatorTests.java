package dev.zklock.actuate;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperHealthAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EmbeddedZooKeeper
@Timeout(120)
class ZooKeeperHealthIndicatorTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class,
				ZooKeeperHealthAutoConfiguration.class));

	@Test
	void followsTheServerThroughAStopAndARestart(ZooKeeperTestServer server) {
		this.contextRunner
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.session-timeout=4s")
			.run((context) -> {
				ZooKeeperHealthIndicator indicator = context.getBean(ZooKeeperHealthIndicator.class);
				Health up = indicator.health();
				assertThat(up.getStatus()).isEqualTo(Status.UP);
				assertThat(up.getDetails()).containsEntry("connectString", server.getConnectString())
					.containsEntry("state", "CONNECTED")
					.containsEntry("sessionTimeout", "4000ms")
					.containsKey("sessionId");
				server.stop();
				try {
					await().atMost(Duration.ofSeconds(20))
						.until(() -> indicator.health().getStatus().equals(Status.OUT_OF_SERVICE));
					assertThat(indicator.health().getDetails()).containsEntry("state", "SUSPENDED");
					// Past the session timeout the session is gone for good.
					await().atMost(Duration.ofSeconds(30))
						.until(() -> indicator.health().getStatus().equals(Status.DOWN));
					assertThat(indicator.health().getDetails()).containsEntry("state", "LOST");
				}
				finally {
					server.restart();
				}
				await().atMost(Duration.ofSeconds(30)).until(() -> indicator.health().getStatus().equals(Status.UP));
				CuratorFramework client = context.getBean(CuratorFramework.class);
				client.close();
				assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
				assertThat(indicator.health().getDetails()).containsEntry("state", "CLOSED");
			});
	}

	@Test
	void canBeDisabled(ZooKeeperTestServer server) {
		this.contextRunner
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(),
					"management.health.zookeeper.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ZooKeeperHealthIndicator.class));
	}

}
