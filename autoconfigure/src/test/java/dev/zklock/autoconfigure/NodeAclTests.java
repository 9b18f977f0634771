package dev.zklock.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockTemplate;
import dev.zklock.actuate.ZooKeeperHealthIndicator;
import dev.zklock.autoconfigure.TestCertificates.Authority;
import dev.zklock.autoconfigure.TestCertificates.Issued;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.jks.JksSslStoreBundle;
import org.springframework.boot.ssl.jks.JksSslStoreDetails;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Lock and leader nodes of an authenticated application: another authenticated client can
 * neither delete nor change them, a client listed in zklock.acl.readers can read them, against
 * real ZooKeeper servers.
 */
class NodeAclTests {

	private static final String PASSWORD = "test-secret";

	@TempDir
	Path dir;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, ZooKeeperAutoConfiguration.class,
				ZkLockAutoConfiguration.class, ZkLeaderAutoConfiguration.class))
		.withPropertyValues("zklock.leader.groups=reports", "zklock.session-timeout=4s");

	@Test
	void clientCertificateIdentityOwnsTheNodes() throws Exception {
		Authority authority = TestCertificates.authority("zklock test CA");
		Path trust = authority.writeTrustStore(this.dir.resolve("trust.p12"), PASSWORD);
		Path data = Files.createDirectories(this.dir.resolve("data"));
		try (SecureZooKeeperServer server = SecureZooKeeperServer.start(data,
				authority.issue("zookeeper").writeKeyStore(this.dir.resolve("server.p12"), PASSWORD), trust, PASSWORD,
				"need")) {
			Path orders = authority.issue("orders-service").writeKeyStore(this.dir.resolve("orders.p12"), PASSWORD);
			this.runner
				.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.ssl.bundle=zk",
						"zklock.acl.readers=x509:CN=auditor",
						"spring.ssl.bundle.jks.zk.keystore.location=file:" + orders,
						"spring.ssl.bundle.jks.zk.keystore.password=" + PASSWORD,
						"spring.ssl.bundle.jks.zk.keystore.type=PKCS12",
						"spring.ssl.bundle.jks.zk.truststore.location=file:" + trust,
						"spring.ssl.bundle.jks.zk.truststore.password=" + PASSWORD,
						"spring.ssl.bundle.jks.zk.truststore.type=PKCS12")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					Health health = new ZooKeeperHealthIndicator(context.getBean(CuratorFramework.class)).health();
					assertThat(health.getDetails()).containsEntry("transport", "TLS")
						.containsEntry("authenticatedAs", List.of("x509:CN=orders-service"));
					assertThat(health.toString()).doesNotContain(PASSWORD).doesNotContain("zklock-tls-");
					try (TlsClient intruder = tlsClient(server, authority.issue("intruder"), trust);
							TlsClient auditor = tlsClient(server, authority.issue("auditor"), trust)) {
						assertNodesAreProtected(context, intruder.client, auditor.client);
					}
				});
		}
	}

	@Test
	void digestIdentityOwnsTheNodes() throws Exception {
		try (ZooKeeperTestServer server = ZooKeeperTestServer.start(200)) {
			this.runner
				.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.auth.scheme=digest",
						"zklock.auth.credentials=orders:secret",
						"zklock.acl.readers=digest:" + DigestAuthenticationProvider.generateDigest("auditor:pw"))
				.run((context) -> {
					assertThat(context).hasNotFailed();
					Health health = new ZooKeeperHealthIndicator(context.getBean(CuratorFramework.class)).health();
					assertThat(health.getDetails()).containsEntry("transport", "plaintext")
						.containsEntry("authenticatedAs", List.of("digest:orders"));
					assertThat(health.toString()).doesNotContain("secret");
					try (CuratorFramework intruder = digestClient(server, "mallory:pw");
							CuratorFramework auditor = digestClient(server, "auditor:pw")) {
						assertNodesAreProtected(context, intruder, auditor);
					}
				});
		}
	}

	@Test
	void malformedIdentityFailsTheStartup() {
		this.runner.withPropertyValues("zklock.connect-string=127.0.0.1:1", "zklock.acl.owners=CN=orders-admin")
			.run((context) -> {
				var analysis = new ZooKeeperSecurityFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("'CN=orders-admin' in zklock.acl.owners");
				assertThat(analysis.getAction()).contains("'zklock.acl.owners'");
			});
	}

	static void assertNodesAreProtected(ApplicationContext context, CuratorFramework intruder,
			CuratorFramework auditor) throws Exception {
		CuratorFramework own = context.getBean(CuratorFramework.class);
		ZkLeadership leadership = context.getBean(ZkLeadership.class);
		await().until(() -> leadership.isLeader("reports"));
		assertProtected(own, intruder, auditor, "/zklock/leaders/reports");
		context.getBean(ZkLockTemplate.class).execute("sku-1", (lock) -> {
			assertProtected(own, intruder, auditor, "/zklock/locks/sku-1");
			return null;
		});
	}

	private static void assertProtected(CuratorFramework own, CuratorFramework intruder, CuratorFramework auditor,
			String parent) throws Exception {
		List<String> children = own.getChildren().forPath(parent);
		assertThat(children).isNotEmpty();
		for (String child : children) {
			String node = parent + "/" + child;
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> intruder.delete().forPath(node));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> intruder.setData().forPath(node, new byte[0]));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> intruder.getData().forPath(node));
			assertThat(auditor.getData().forPath(node)).isNotNull();
			assertThat(auditor.getChildren().forPath(parent)).contains(child);
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> auditor.delete().forPath(node));
			assertThat(own.checkExists().forPath(node)).isNotNull();
		}
	}

	private static CuratorFramework digestClient(ZooKeeperTestServer server, String credentials) throws Exception {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.retryPolicy(new RetryOneTime(100))
			.authorization("digest", credentials.getBytes(StandardCharsets.UTF_8))
			.build();
		client.start();
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private TlsClient tlsClient(SecureZooKeeperServer server, Issued certificate, Path trust) throws Exception {
		Path keyStore = certificate.writeKeyStore(this.dir.resolve(System.nanoTime() + ".p12"), PASSWORD);
		SslBundle bundle = SslBundle.of(new JksSslStoreBundle(
				new JksSslStoreDetails("PKCS12", null, "file:" + keyStore, PASSWORD),
				new JksSslStoreDetails("PKCS12", null, "file:" + trust, PASSWORD)));
		ZkLockProperties.Ssl ssl = new ZkLockProperties.Ssl();
		ssl.setBundle("other");
		ZooKeeperClientTls tls = ZooKeeperClientTls.of(new DefaultSslBundleRegistry("other", bundle), ssl);
		ZKClientConfig config = new ZKClientConfig();
		tls.applyTo(config);
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.retryPolicy(new RetryOneTime(100))
			.zkClientConfig(config)
			.build();
		client.start();
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return new TlsClient(client, tls);
	}

	private record TlsClient(CuratorFramework client, ZooKeeperClientTls tls) implements AutoCloseable {

		@Override
		public void close() {
			this.client.close();
			this.tls.destroy();
		}

	}

}
