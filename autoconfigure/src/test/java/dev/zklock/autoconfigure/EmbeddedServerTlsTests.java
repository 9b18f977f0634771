package dev.zklock.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockTemplate;
import dev.zklock.actuate.ZooKeeperHealthIndicator;
import dev.zklock.autoconfigure.TestCertificates.Authority;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The embedded server with {@code zklock.embedded.ssl.bundle}: TLS only, client certificates
 * required and known as {@code x509:} identities, its JVM-wide system properties set while it
 * runs and cleared after, a conflict with properties already set reported at startup.
 */
class EmbeddedServerTlsTests {

	private static final String PASSWORD = "test-secret";

	private static final String KEY_STORE_PROPERTY = "zookeeper.ssl.keyStore.location";

	@TempDir
	Path dir;

	private final List<String> bundles = new ArrayList<>();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, ZooKeeperAutoConfiguration.class,
				ZkLockAutoConfiguration.class, ZkLeaderAutoConfiguration.class))
		.withPropertyValues("zklock.embedded.enabled=true", "zklock.embedded.ssl.bundle=zk-server",
				"zklock.ssl.bundle=zk-client", "zklock.leader.groups=reports");

	@BeforeEach
	void certificates() {
		Authority authority = TestCertificates.authority("zklock embedded CA");
		Path trust = authority.writeTrustStore(this.dir.resolve("trust.p12"), PASSWORD);
		bundle("zk-server", authority.issue("zookeeper").writeKeyStore(this.dir.resolve("server.p12"), PASSWORD),
				trust);
		bundle("zk-client",
				authority.issue("orders-service").writeKeyStore(this.dir.resolve("client.p12"), PASSWORD), trust);
	}

	private void bundle(String name, Path keyStore, Path trustStore) {
		String prefix = "spring.ssl.bundle.jks." + name;
		this.bundles.add(prefix + ".keystore.location=file:" + keyStore);
		this.bundles.add(prefix + ".keystore.password=" + PASSWORD);
		this.bundles.add(prefix + ".keystore.type=PKCS12");
		this.bundles.add(prefix + ".truststore.location=file:" + trustStore);
		this.bundles.add(prefix + ".truststore.password=" + PASSWORD);
		this.bundles.add(prefix + ".truststore.type=PKCS12");
	}

	@Test
	void locksAndLeadershipOverTlsToTheEmbeddedServer() {
		assertThat(System.getProperty(KEY_STORE_PROPERTY)).isNull();
		List<Path> storeFiles = new ArrayList<>();
		this.runner.withPropertyValues(this.bundles.toArray(String[]::new)).run((context) -> {
			assertThat(context).hasNotFailed();
			EmbeddedZooKeeperServer server = context.getBean(EmbeddedZooKeeperServer.class);
			assertThat(server.isSecure()).isTrue();
			Health health = new ZooKeeperHealthIndicator(context.getBean(CuratorFramework.class)).health();
			assertThat(health.getDetails()).containsEntry("transport", "TLS")
				.containsEntry("authenticatedAs", List.of("x509:CN=orders-service"));
			Long token = context.getBean(ZkLockTemplate.class).execute("sku-1", (lock) -> lock.fencingToken());
			assertThat(token).isPositive();
			await().until(() -> context.getBean(ZkLeadership.class).isLeader("reports"));
			String keyStore = System.getProperty(KEY_STORE_PROPERTY);
			assertThat(keyStore).as("the server's key store, while it runs").isNotNull();
			storeFiles.add(Path.of(keyStore));
			assertThat(Files.exists(storeFiles.get(0))).isTrue();
			try (CuratorFramework plaintext = CuratorFrameworkFactory.builder()
				.connectString(server.getConnectString())
				.retryPolicy(new RetryOneTime(100))
				.connectionTimeoutMs(2000)
				.build()) {
				plaintext.start();
				assertThat(plaintext.blockUntilConnected(3, TimeUnit.SECONDS))
					.as("a plaintext client against the TLS-only embedded server")
					.isFalse();
			}
		});
		assertThat(System.getProperty(KEY_STORE_PROPERTY)).as("cleared when the server stopped").isNull();
		assertThat(storeFiles).hasSize(1);
		assertThat(Files.exists(storeFiles.get(0))).as("store file removed").isFalse();
	}

	@Test
	void systemPropertyAlreadySetFailsTheStartup() {
		System.setProperty(KEY_STORE_PROPERTY, "/etc/elsewhere.p12");
		try {
			this.runner.withPropertyValues(this.bundles.toArray(String[]::new)).run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("'" + KEY_STORE_PROPERTY + "'")
					.contains("already set");
				assertThat(analysis.getAction()).contains("'zklock.embedded.ssl.bundle'");
			});
			assertThat(System.getProperty(KEY_STORE_PROPERTY)).isEqualTo("/etc/elsewhere.p12");
		}
		finally {
			System.clearProperty(KEY_STORE_PROPERTY);
		}
	}

	@Test
	void unknownServerBundleFailsTheStartup() {
		this.runner.withPropertyValues(this.bundles.toArray(String[]::new))
			.withPropertyValues("zklock.embedded.ssl.bundle=missing")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("zklock.embedded.ssl.bundle names SSL bundle 'missing'");
				assertThat(analysis.getAction()).contains("'zklock.embedded.ssl.bundle'");
			});
	}

	private static FailureAnalysis analyze(Throwable failure) {
		assertThat(failure).isNotNull();
		FailureAnalysis analysis = new ZooKeeperSecurityFailureAnalyzer().analyze(failure);
		assertThat(analysis).as("a ZooKeeperSecurityException in %s", failure).isNotNull();
		return analysis;
	}

}
