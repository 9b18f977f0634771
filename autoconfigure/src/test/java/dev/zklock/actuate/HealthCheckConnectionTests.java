package dev.zklock.actuate;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
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

/**
 * Health checks and the endpoint read the session's identities ({@code whoAmI}, a request that
 * servers before 3.7 do not know): on every server line they leave the connection, and so every
 * held lock and leadership, undisturbed.
 */
@EmbeddedZooKeeper
@Timeout(60)
class HealthCheckConnectionTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class,
				ZooKeeperHealthAutoConfiguration.class));

	@Test
	void healthChecksLeaveTheConnectionUndisturbed(ZooKeeperTestServer server) {
		this.contextRunner.withPropertyValues("zklock.connect-string=" + server.getConnectString()).run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			client.getConnectionStateListenable().addListener((source, state) -> states.add(state));
			long sessionId = client.getZookeeperClient().getZooKeeper().getSessionId();
			ZooKeeperHealthIndicator indicator = context.getBean(ZooKeeperHealthIndicator.class);
			for (int i = 0; i < 5; i++) {
				Health health = indicator.health();
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				assertThat(health.getDetails()).containsEntry("authenticatedAs", List.of());
				// A request the server answers after the health check: the connection is still up.
				client.checkExists().forPath("/");
			}
			assertThat(states).as("connection state changes during the health checks").isEmpty();
			assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(sessionId);
		});
	}

}
