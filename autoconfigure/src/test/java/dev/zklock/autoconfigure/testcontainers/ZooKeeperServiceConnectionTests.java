package dev.zklock.autoconfigure.testcontainers;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperConnectionDetails;
import dev.zklock.test.testcontainers.ZooKeeperContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.boot.testcontainers.service.connection.ServiceConnectionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ServiceConnection} on a {@link ZooKeeperContainer}: the application connects to the
 * container's ZooKeeper with no {@code zklock.*} property, and its locks exclude another
 * application context's. The context is closed after the class, before the container stops.
 */
@LocalZooKeeperImage.Required
@Testcontainers
@SpringBootTest(classes = ZooKeeperServiceConnectionTests.Application.class)
@DirtiesContext
@Timeout(180)
class ZooKeeperServiceConnectionTests {

	@Container
	@ServiceConnection
	static final ZooKeeperContainer zookeeper = LocalZooKeeperImage.container();

	@Autowired
	private ZooKeeperConnectionDetails connectionDetails;

	@Autowired
	private ZkLockTemplate locks;

	@Autowired
	private Environment environment;

	@Test
	void connectsWithNoZklockProperty() {
		assertThat(this.environment.getProperty("zklock.connect-string")).isNull();
		assertThat(this.connectionDetails.getConnectString()).isEqualTo(zookeeper.getConnectString())
			.isNotEqualTo("localhost:2181");
		long token = this.locks.execute("service-connection", (lock) -> lock.fencingToken());
		assertThat(token).isPositive();
	}

	@Test
	void lockExcludesAnotherApplicationContext() throws Exception {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ServiceConnectionAutoConfiguration.class,
					ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withUserConfiguration(ContainerBean.class)
			.run((other) -> {
				ZkLockTemplate otherLocks = other.getBean(ZkLockTemplate.class);
				assertThat(other.getBean(ZooKeeperConnectionDetails.class).getConnectString())
					.isEqualTo(zookeeper.getConnectString());
				CountDownLatch held = new CountDownLatch(1);
				CountDownLatch release = new CountDownLatch(1);
				ExecutorService executor = Executors.newSingleThreadExecutor();
				Future<Long> holder = executor.submit(() -> this.locks.execute("shared",
						(lock) -> {
							held.countDown();
							release.await(60, TimeUnit.SECONDS);
							return lock.fencingToken();
						}));
				assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();
				Optional<Long> whileHeld = otherLocks.tryExecute("shared", LockMode.EXCLUSIVE, Duration.ofMillis(300),
						(lock) -> lock.fencingToken());
				assertThat(whileHeld).as("the other context cannot take the held lock").isEmpty();
				release.countDown();
				long first = holder.get(30, TimeUnit.SECONDS);
				executor.shutdown();
				Optional<Long> afterRelease = otherLocks.tryExecute("shared", LockMode.EXCLUSIVE, Duration.ofSeconds(10),
						(lock) -> lock.fencingToken());
				assertThat(afterRelease).as("the other context takes it once released").hasValueSatisfying(
						(token) -> assertThat(token).isGreaterThan(first));
			});
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class })
	static class Application {

	}

	@Configuration(proxyBeanMethods = false)
	static class ContainerBean {

		@Bean(destroyMethod = "")
		@ServiceConnection
		ZooKeeperContainer zookeeper() {
			return zookeeper;
		}

	}

}
