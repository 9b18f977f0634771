package dev.zklock.autoconfigure;

import java.io.File;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.junit.jupiter.api.Test;

import dev.zklock.cluster.ListingClients;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

@EmbeddedZooKeeper
class ZooKeeperAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class));

	@Test
	void defaultsGiveAStartedConnectedClient(ZooKeeperTestServer server) {
		this.contextRunner.withPropertyValues("zklock.connect-string=" + server.getConnectString()).run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
			assertThat(client.getZookeeperClient().isConnected()).isTrue();
			assertThat(client.getNamespace()).isEmpty();
			assertThat(client.getZookeeperClient().getConnectionTimeoutMs()).isEqualTo(10_000);
			assertThat(client.getZookeeperClient().getZooKeeper().getSessionTimeout()).isEqualTo(30_000);
			assertThat(client.getZookeeperClient().getRetryPolicy()).isInstanceOfSatisfying(
					BoundedExponentialBackoffRetry.class, (retry) -> {
						assertThat(retry.getBaseSleepTimeMs()).isEqualTo(100);
						assertThat(retry.getMaxSleepTimeMs()).isEqualTo(5000);
					});
			assertThat(context).hasSingleBean(ZooKeeperConnectionDetails.class);
		});
	}

	@Test
	void everyPropertyIsMappedOntoTheClient(ZooKeeperTestServer server) {
		this.contextRunner
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.namespace=/orders",
					"zklock.session-timeout=4s", "zklock.connection-timeout=3s", "zklock.retry.base-sleep=20ms",
					"zklock.retry.max-sleep=700ms", "zklock.retry.max-retries=3")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getNamespace()).isEqualTo("orders");
				assertThat(client.getZookeeperClient().getConnectionTimeoutMs()).isEqualTo(3000);
				assertThat(client.getZookeeperClient().getZooKeeper().getSessionTimeout()).isEqualTo(4000);
				assertThat(client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(server.getConnectString());
				BoundedExponentialBackoffRetry retry = (BoundedExponentialBackoffRetry) client.getZookeeperClient()
					.getRetryPolicy();
				assertThat(retry.getBaseSleepTimeMs()).isEqualTo(20);
				assertThat(retry.getMaxSleepTimeMs()).isEqualTo(700);
				assertThat(retry.allowRetry(2, 0, (time, unit) -> {
				})).isTrue();
				assertThat(retry.allowRetry(3, 0, (time, unit) -> {
				})).isFalse();
				client.create().creatingParentsIfNeeded().forPath("/probe");
				try (CuratorFramework plain = newClient(server)) {
					assertThat(plain.checkExists().forPath("/orders/probe")).isNotNull();
				}
			});
	}

	@Test
	void userClientIsUsedAsItIsAndNotClosed(ZooKeeperTestServer server) {
		CuratorFramework own = newClient(server);
		UserClientConfiguration.client = own;
		try {
			this.contextRunner.withPropertyValues("zklock.connect-string=127.0.0.1:1")
				.withUserConfiguration(UserClientConfiguration.class)
				.run((context) -> {
					assertThat(context).hasSingleBean(CuratorFramework.class);
					assertThat(context.getBean(CuratorFramework.class)).isSameAs(own);
				});
			assertThat(own.getState()).isEqualTo(CuratorFrameworkState.STARTED);
		}
		finally {
			own.close();
		}
	}

	@Test
	void listingClientsAreMadeLikeTheClientWithTheirOwnReplyLimitAndSession(ZooKeeperTestServer server) {
		this.contextRunner
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.namespace=orders")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				try (CuratorFramework listing = context.getBean(ListingClients.class).newClient(8 * 1024 * 1024)) {
					listing.start();
					assertThat(listing.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
					assertThat(listing.getNamespace()).isEqualTo("orders");
					assertThat(listing.getZookeeperClient().getRetryPolicy().allowRetry(0, 0, (sleep, unit) -> {
					})).isFalse();
					assertThat(listing.getZookeeperClient().getZooKeeper().getClientConfig()
						.getInt(ZKConfig.JUTE_MAXBUFFER, 0)).isEqualTo(8 * 1024 * 1024);
					assertThat(listing.getZookeeperClient().getZooKeeper().getSessionId())
						.isNotEqualTo(client.getZookeeperClient().getZooKeeper().getSessionId());
				}
				assertThat(client.getZookeeperClient().getZooKeeper().getClientConfig()
					.getInt(ZKConfig.JUTE_MAXBUFFER, ZKClientConfig.CLIENT_MAX_PACKET_LENGTH_DEFAULT))
					.isEqualTo(ZKClientConfig.CLIENT_MAX_PACKET_LENGTH_DEFAULT);
			});
	}

	@Test
	void aUserClientGetsNoListingClients(ZooKeeperTestServer server) {
		CuratorFramework own = newClient(server);
		UserClientConfiguration.client = own;
		try {
			this.contextRunner.withUserConfiguration(UserClientConfiguration.class)
				.run((context) -> assertThat(context).doesNotHaveBean(ListingClients.class));
		}
		finally {
			own.close();
		}
	}

	@Test
	void customizersAreAppliedInOrder(ZooKeeperTestServer server) {
		this.contextRunner.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.withUserConfiguration(CustomizersConfiguration.class)
			.run((context) -> {
				assertThat(context.getBean(CustomizersConfiguration.class).calls).containsExactly("first", "second");
				assertThat(context.getBean(CuratorFramework.class).getNamespace()).isEqualTo("second");
			});
	}

	@Test
	void clientIsClosedWithTheContext(ZooKeeperTestServer server) {
		List<CuratorFramework> clients = new ArrayList<>();
		this.contextRunner.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.run((context) -> clients.add(context.getBean(CuratorFramework.class)));
		assertThat(clients.get(0).getState()).isEqualTo(CuratorFrameworkState.STOPPED);
	}

	@Test
	void disabledBacksOff(ZooKeeperTestServer server) {
		this.contextRunner
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(CuratorFramework.class)
				.doesNotHaveBean(ZooKeeperConnectionDetails.class));
	}

	@Test
	void connectionDetailsBeanWins(ZooKeeperTestServer server) {
		this.contextRunner.withPropertyValues("zklock.connect-string=127.0.0.1:1")
			.withBean(ZooKeeperConnectionDetails.class, () -> server::getConnectString)
			.run((context) -> assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().isConnected())
				.isTrue());
	}

	@Test
	void unreachableZooKeeperFailsFastWithAnExplanation() throws Exception {
		String connectString = "127.0.0.1:" + closedPort();
		ApplicationContextRunner runner = this.contextRunner.withPropertyValues("zklock.connect-string=" + connectString,
				"zklock.connection-timeout=1s");
		// A first, unmeasured run loads the classes, so the measured one times the fail-fast wait.
		runner.run((context) -> assertThat(context).hasFailed());
		long start = System.nanoTime();
		runner.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
				Throwable failure = context.getStartupFailure();
				FailureAnalysis analysis = new ZooKeeperUnavailableFailureAnalyzer().analyze(failure);
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains(connectString).contains("1000ms");
				assertThat(analysis.getAction()).contains("zklock.connect-string")
					.contains("zklock.embedded.enabled")
					.contains(connectString);
			});
	}

	@Test
	void malformedConnectStringFailsWithAnExplanation() {
		this.contextRunner.withPropertyValues("zklock.connect-string=localhost:21x81").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InvalidConnectStringFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("localhost:21x81").contains("'21x81', which is not a number");
			assertThat(analysis.getAction()).contains("zklock.connect-string").contains("zklock.embedded.enabled");
		});
	}

	@Test
	void withoutFailFastStartsAndConnectsWhenTheServerAppears() {
		try (ZooKeeperTestServer late = ZooKeeperTestServer.start(500)) {
			late.stop();
			this.contextRunner
				.withPropertyValues("zklock.connect-string=" + late.getConnectString(), "zklock.fail-fast=false",
						"zklock.connection-timeout=1s")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					CuratorFramework client = context.getBean(CuratorFramework.class);
					assertThat(client.getZookeeperClient().isConnected()).isFalse();
					late.restart();
					await().atMost(Duration.ofSeconds(20)).until(() -> client.getZookeeperClient().isConnected());
					client.create().forPath("/late");
				});
		}
	}

	@Test
	void embeddedServerIsARealServerOthersCanUse() {
		List<File> dataDirs = new ArrayList<>();
		this.contextRunner.withPropertyValues("zklock.embedded.enabled=true").run((context) -> {
			EmbeddedZooKeeperServer server = context.getBean(EmbeddedZooKeeperServer.class);
			dataDirs.add(server.getDataDir());
			assertThat(context.getBean(ZooKeeperConnectionDetails.class).getConnectString())
				.isEqualTo(server.getConnectString());
			assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().isConnected()).isTrue();
			try (CuratorFramework other = CuratorFrameworkFactory.newClient(server.getConnectString(),
					new RetryOneTime(100))) {
				other.start();
				other.create().creatingParentsIfNeeded().forPath("/embedded/probe", "hi".getBytes());
				assertThat(context.getBean(CuratorFramework.class).getData().forPath("/embedded/probe"))
					.isEqualTo("hi".getBytes());
			}
		});
		assertThat(dataDirs.get(0)).doesNotExist();
	}

	@Test
	void embeddedServerOnAGivenPortAndDataDir(@org.junit.jupiter.api.io.TempDir File dataDir) throws Exception {
		int port = closedPort();
		this.contextRunner
			.withPropertyValues("zklock.embedded.enabled=true", "zklock.embedded.port=" + port,
					"zklock.embedded.data-dir=" + dataDir)
			.run((context) -> {
				assertThat(context.getBean(EmbeddedZooKeeperServer.class).getConnectString())
					.isEqualTo("127.0.0.1:" + port);
				context.getBean(CuratorFramework.class).create().forPath("/kept");
			});
		assertThat(dataDir).isNotEmptyDirectory();
	}

	@Test
	void digestAuthMakesNodesCreatorOnly(ZooKeeperTestServer server) {
		this.contextRunner
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.auth.scheme=digest",
					"zklock.auth.credentials=app:secret")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				client.create().creatingParentContainersIfNeeded().forPath("/secured/node");
				assertThat(client.getACL().forPath("/secured/node")).hasSize(1)
					.allSatisfy((acl) -> assertThat(acl.getId().getScheme()).isEqualTo("digest"));
				try (CuratorFramework stranger = newClient(server)) {
					assertThatExceptionOfType(KeeperException.NoAuthException.class)
						.isThrownBy(() -> stranger.delete().forPath("/secured/node"));
					assertThatExceptionOfType(KeeperException.NoAuthException.class)
						.isThrownBy(() -> stranger.getData().forPath("/secured/node"));
				}
				try (CuratorFramework sameUser = CuratorFrameworkFactory.builder()
					.connectString(server.getConnectString())
					.retryPolicy(new RetryOneTime(100))
					.authorization("digest", "app:secret".getBytes(StandardCharsets.UTF_8))
					.build()) {
					sameUser.start();
					sameUser.delete().forPath("/secured/node");
				}
				assertThat(ZooDefs.Ids.CREATOR_ALL_ACL).hasSize(1);
			});
	}

	private static CuratorFramework newClient(ZooKeeperTestServer server) {
		CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
		client.start();
		return client;
	}

	private static int closedPort() throws Exception {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class UserClientConfiguration {

		static CuratorFramework client;

		@Bean(destroyMethod = "")
		CuratorFramework myClient() {
			return client;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomizersConfiguration {

		final List<String> calls = new ArrayList<>();

		@Bean
		@Order(2)
		CuratorFrameworkBuilderCustomizer second() {
			return (builder) -> {
				this.calls.add("second");
				builder.namespace("second");
			};
		}

		@Bean
		@Order(1)
		CuratorFrameworkBuilderCustomizer first() {
			return (builder) -> {
				this.calls.add("first");
				builder.namespace("first");
			};
		}

	}

}
