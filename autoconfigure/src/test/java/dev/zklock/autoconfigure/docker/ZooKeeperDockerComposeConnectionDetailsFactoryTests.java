package dev.zklock.autoconfigure.docker;

import java.util.List;
import java.util.Map;

import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperConnectionDetails;
import dev.zklock.autoconfigure.testcontainers.LocalZooKeeperImage;
import dev.zklock.test.testcontainers.ZooKeeperContainer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.docker.compose.core.ConnectionPorts;
import org.springframework.boot.docker.compose.core.ImageReference;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.TestDockerComposeConnectionSources;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Docker Compose connection details factory, found the way Spring Boot finds it, given a
 * running service for a real ZooKeeper container: the application connects and locks.
 * {@link ZooKeeperDockerComposeTests} runs the whole path through {@code docker compose} where
 * Docker Compose v2 is installed.
 */
@LocalZooKeeperImage.Required
@Timeout(180)
class ZooKeeperDockerComposeConnectionDetailsFactoryTests {

	private static ZooKeeperContainer zookeeper;

	@BeforeAll
	static void start() {
		zookeeper = LocalZooKeeperImage.container();
		zookeeper.start();
	}

	@AfterAll
	static void stop() {
		if (zookeeper != null) {
			zookeeper.stop();
		}
	}

	@Test
	void serviceOfTheZooKeeperImageSuppliesConnectionDetailsThatWork() {
		ZooKeeperConnectionDetails details = connectionDetails(service(LocalZooKeeperImage.NAME.asCanonicalNameString(), Map.of()));
		assertThat(details).isNotNull();
		assertThat(details.getConnectString()).isEqualTo("127.0.0.1:" + zookeeper.getMappedPort(2181));
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withBean(ZooKeeperConnectionDetails.class, () -> details)
			.run((context) -> {
				long token = context.getBean(ZkLockTemplate.class).execute("compose", (lock) -> lock.fencingToken());
				assertThat(token).isPositive();
			});
	}

	@Test
	void serviceLabelledZooKeeperSuppliesConnectionDetails() {
		assertThat(connectionDetails(service("example/coordination:1",
				Map.of("org.springframework.boot.service-connection", "zookeeper"))))
			.isNotNull();
	}

	@Test
	void otherServicesSupplyNone() {
		assertThat(connectionDetails(service("redis:7", Map.of()))).isNull();
	}

	private static @Nullable ZooKeeperConnectionDetails connectionDetails(RunningService service) {
		Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(null).getConnectionDetails(
				TestDockerComposeConnectionSources.of(service, new MockEnvironment()), false);
		return (ZooKeeperConnectionDetails) details.get(ZooKeeperConnectionDetails.class);
	}

	private static RunningService service(String image, Map<String, String> labels) {
		int port = zookeeper.getMappedPort(2181);
		ConnectionPorts ports = new ConnectionPorts() {

			@Override
			public int get(int containerPort) {
				if (containerPort != 2181) {
					throw new IllegalStateException("No host port for " + containerPort);
				}
				return port;
			}

			@Override
			public List<Integer> getAll() {
				return List.of(port);
			}

			@Override
			public List<Integer> getAll(@Nullable String protocol) {
				return List.of(port);
			}

		};
		return new RunningService() {

			@Override
			public String name() {
				return "zookeeper";
			}

			@Override
			public ImageReference image() {
				return ImageReference.of(image);
			}

			@Override
			public String host() {
				return "127.0.0.1";
			}

			@Override
			public ConnectionPorts ports() {
				return ports;
			}

			@Override
			public Map<String, @Nullable String> env() {
				return Map.of();
			}

			@Override
			public Map<String, String> labels() {
				return labels;
			}

		};
	}

}
