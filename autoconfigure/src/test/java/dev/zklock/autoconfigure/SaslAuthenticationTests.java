package dev.zklock.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ClientInfo;
import org.apache.zookeeper.server.auth.SASLAuthenticationProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.zklock.actuate.ZooKeeperHealthIndicator;
import dev.zklock.test.ZooKeeperEnsemble;
import dev.zklock.test.ZooKeeperEnsembleBuilder;
import dev.zklock.test.ZooKeeperServerJars;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * SASL (DIGEST-MD5) logins set through {@code zklock.sasl.*}, against a real ZooKeeper server
 * (a process of its own, whose JAAS file lists the users): no JAAS file on the client, a login
 * per client, a wrong password or contradicting settings reported at startup, and lock and
 * leader nodes owned by the SASL identity.
 */
class SaslAuthenticationTests {

	private static final String PASSWORD = "orders-secret";

	@TempDir
	static Path dir;

	private static ZooKeeperEnsemble server;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkLeaderAutoConfiguration.class))
		.withPropertyValues("zklock.leader.groups=reports", "zklock.session-timeout=4s",
				"zklock.connection-timeout=30s");

	@BeforeAll
	static void startServer() throws Exception {
		Path jaas = Files.writeString(dir.resolve("server-jaas.conf"), """
				Server {
				  org.apache.zookeeper.server.auth.DigestLoginModule required
				  user_orders="%s"
				  user_mallory="mallory-pw"
				  user_auditor="auditor-pw";
				};
				""".formatted(PASSWORD), StandardCharsets.UTF_8);
		ZooKeeperEnsembleBuilder builder = ZooKeeperEnsemble.builder()
			.servers(1)
			.jvmArgs("-Djava.security.auth.login.config=" + jaas,
					"-Dzookeeper.authProvider.sasl=" + SASLAuthenticationProvider.class.getName());
		// In the build's runs against each server line, a server of that line's own jars.
		String version = ZooKeeperTestServer.serverVersion();
		if (version != null) {
			builder.serverJars(ZooKeeperServerJars.folder(version));
		}
		server = builder.start();
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void digestLoginThroughPropertiesOwnsTheNodes() {
		assertThat(System.getProperty("java.security.auth.login.config")).as("no JAAS file on the client").isNull();
		this.runner
			.withPropertyValues("zklock.connect-string=" + server.connectString(), "zklock.sasl.username=orders",
					"zklock.sasl.password=" + PASSWORD, "zklock.acl.readers=sasl:auditor")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Health health = new ZooKeeperHealthIndicator(context.getBean(CuratorFramework.class)).health();
				assertThat(health.getDetails()).containsEntry("authenticatedAs", List.of("sasl:orders"));
				assertThat(health.toString()).doesNotContain(PASSWORD);
				try (SaslClient intruder = saslClient("mallory", "mallory-pw");
						SaslClient auditor = saslClient("auditor", "auditor-pw")) {
					assertThat(whoAmI(intruder.client)).containsExactly("sasl:mallory");
					assertThat(whoAmI(auditor.client)).containsExactly("sasl:auditor");
					NodeAclTests.assertNodesAreProtected(context, intruder.client, auditor.client);
				}
			});
	}

	@Test
	void wrongPasswordFailsTheStartupWithTheReason() {
		this.runner
			.withPropertyValues("zklock.connect-string=" + server.connectString(), "zklock.sasl.username=orders",
					"zklock.sasl.password=wrong")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("rejected the DIGEST-MD5 login of user 'orders'");
				assertThat(analysis.getAction()).contains("'zklock.sasl.password'");
				assertThat(analysis.getDescription() + analysis.getAction()).doesNotContain("wrong");
			});
	}

	@Test
	void usernameWithoutPasswordFailsTheStartup() {
		this.runner.withPropertyValues("zklock.connect-string=" + server.connectString(), "zklock.sasl.username=orders")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("zklock.sasl.username is set to 'orders' without a password");
				assertThat(analysis.getAction()).contains("'zklock.sasl.password'");
			});
	}

	@Test
	void passwordWithoutUsernameFailsTheStartup() {
		this.runner.withPropertyValues("zklock.connect-string=" + server.connectString(), "zklock.sasl.password=pw")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getAction())
				.contains("'zklock.sasl.username'"));
	}

	@Test
	void loginContextWithCredentialsFailsTheStartup() {
		this.runner
			.withPropertyValues("zklock.connect-string=" + server.connectString(), "zklock.sasl.username=orders",
					"zklock.sasl.password=" + PASSWORD, "zklock.sasl.login-context=Client")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
				.contains("zklock.sasl.login-context and zklock.sasl.username/password both set"));
	}

	@Test
	void unknownLoginContextFailsTheStartup() {
		this.runner
			.withPropertyValues("zklock.connect-string=" + server.connectString(),
					"zklock.sasl.login-context=NoSuchSection")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("JAAS section 'NoSuchSection'");
				assertThat(analysis.getAction()).contains("'zklock.sasl.login-context'");
			});
	}

	@Test
	void replacedJaasConfigurationIsReported() {
		Configuration previous = Configuration.getConfiguration();
		ZkLockProperties.Sasl properties = new ZkLockProperties.Sasl();
		properties.setUsername("orders");
		properties.setPassword(PASSWORD);
		ZooKeeperClientSasl sasl = ZooKeeperClientSasl.of(properties);
		assertThat(JaasSections.isVisible(sasl.section())).isTrue();
		try {
			Configuration.setConfiguration(new Configuration() {

				@Override
				public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
					return null;
				}

			});
			assertThatExceptionOfType(ZooKeeperSecurityException.class)
				.isThrownBy(sasl::checkVisible)
				.withMessageContaining("JAAS configuration was replaced");
		}
		finally {
			Configuration.setConfiguration(previous);
			sasl.destroy();
		}
		assertThat(JaasSections.isVisible(sasl.section())).as("section removed with the bean").isFalse();
	}

	private static FailureAnalysis analyze(Throwable failure) {
		assertThat(failure).isNotNull();
		FailureAnalysis analysis = new ZooKeeperSecurityFailureAnalyzer().analyze(failure);
		assertThat(analysis).as("a ZooKeeperSecurityException in %s", failure).isNotNull();
		return analysis;
	}

	private static List<String> whoAmI(CuratorFramework client) throws Exception {
		return client.getZookeeperClient()
			.getZooKeeper()
			.whoAmI()
			.stream()
			.filter((info) -> !"ip".equals(info.getAuthScheme()))
			.map((ClientInfo info) -> info.getAuthScheme() + ":" + info.getUser())
			.toList();
	}

	private static SaslClient saslClient(String username, String password) throws Exception {
		ZkLockProperties.Sasl properties = new ZkLockProperties.Sasl();
		properties.setUsername(username);
		properties.setPassword(password);
		ZooKeeperClientSasl sasl = ZooKeeperClientSasl.of(properties);
		ZKClientConfig config = new ZKClientConfig();
		sasl.applyTo(config);
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.connectString())
			.retryPolicy(new RetryOneTime(100))
			.zkClientConfig(config)
			.build();
		client.start();
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		assertThat(sasl.verifyLogin(client, server.connectString(), Duration.ofSeconds(10))).isTrue();
		return new SaslClient(client, sasl);
	}

	private record SaslClient(CuratorFramework client, ZooKeeperClientSasl sasl) implements AutoCloseable {

		@Override
		public void close() {
			this.client.close();
			this.sasl.destroy();
		}

	}

}
