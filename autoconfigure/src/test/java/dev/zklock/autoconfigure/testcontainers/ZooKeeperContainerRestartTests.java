package dev.zklock.autoconfigure.testcontainers;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.github.dockerjava.api.DockerClient;
import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.testcontainers.ZooKeeperContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.boot.testcontainers.service.connection.ServiceConnectionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The container's ZooKeeper is stopped and started again while a lock is held: the holder is
 * told its lock is in doubt, and both the holder and a waiter in another application context
 * finish once the server is back, as with the embedded server.
 */
@LocalZooKeeperImage.Required
@Timeout(240)
class ZooKeeperContainerRestartTests {

	private static ZooKeeperContainer zookeeper;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void tearDown() throws Exception {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Test
	void holderIsToldWhenTheContainersZooKeeperStopsAndRecoversWhenItStartsAgain() throws Exception {
		try (ZooKeeperContainer container = LocalZooKeeperImage.container().withLoopbackPort(freeLoopbackPort())) {
			container.start();
			zookeeper = container;
			ApplicationContextRunner runner = new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(ServiceConnectionAutoConfiguration.class,
						ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
				.withUserConfiguration(ContainerBean.class)
				.withPropertyValues("zklock.session-timeout=20s");
			runner.run((holderContext) -> runner.run((waiterContext) -> {
				ZkLockTemplate holder = holderContext.getBean(ZkLockTemplate.class);
				ZkLockTemplate waiter = waiterContext.getBean(ZkLockTemplate.class);
				AtomicReference<HeldLock> held = new AtomicReference<>();
				CountDownLatch finish = new CountDownLatch(1);
				Future<String> holding = this.executor.submit(() -> holder.execute("restart", (lock) -> {
					held.set(lock);
					finish.await(120, TimeUnit.SECONDS);
					return "holder done";
				}));
				await().atMost(Duration.ofSeconds(20)).until(() -> held.get() != null);
				Future<String> waiting = this.executor.submit(() -> waiter.execute("restart", LockMode.EXCLUSIVE,
						Duration.ofSeconds(120), (lock) -> "waiter done"));
				await().atMost(Duration.ofSeconds(20)).until(() -> waiter.waitingCalls().size() == 1);
				DockerClient docker = DockerClientFactory.instance().client();
				docker.stopContainerCmd(container.getContainerId()).withTimeout(10).exec();
				try {
					await().atMost(Duration.ofSeconds(30)).until(() -> !held.get().isValid());
					assertThat(holder.heldLocks()).singleElement()
						.satisfies((info) -> assertThat(info.state()).isEqualTo("IN_DOUBT"));
				}
				finally {
					docker.startContainerCmd(container.getContainerId()).exec();
				}
				await().atMost(Duration.ofSeconds(60)).until(() -> held.get().isValid());
				finish.countDown();
				assertThat(holding.get(30, TimeUnit.SECONDS)).isEqualTo("holder done");
				assertThat(waiting.get(60, TimeUnit.SECONDS)).isEqualTo("waiter done");
			}));
		}
	}

	private static int freeLoopbackPort() throws Exception {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
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
