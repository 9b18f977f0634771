package dev.zklock.autoconfigure;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.zklock.ZkLeadership;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.TestCertificates.Authority;
import dev.zklock.autoconfigure.TestCertificates.Issued;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The auto-configured client over TLS, against a real ZooKeeper server whose only client port
 * is TLS and which needs a client certificate, with certificates made by the test.
 */
class SecureConnectionTests {

	private static final String PASSWORD = "test-secret";

	@TempDir
	Path dir;

	private Authority authority;

	private SecureZooKeeperServer server;

	private final List<String> bundleProperties = new ArrayList<>();

	@BeforeEach
	void certificatesAndBundle() {
		this.authority = TestCertificates.authority("zklock test CA");
		Issued client = this.authority.issue("orders-service");
		this.bundleProperties.add("spring.ssl.bundle.jks.zk.keystore.location=file:"
				+ client.writeKeyStore(this.dir.resolve("client.p12"), PASSWORD));
		this.bundleProperties.add("spring.ssl.bundle.jks.zk.keystore.password=" + PASSWORD);
		this.bundleProperties.add("spring.ssl.bundle.jks.zk.keystore.type=PKCS12");
		this.bundleProperties.add("spring.ssl.bundle.jks.zk.truststore.location=file:"
				+ this.authority.writeTrustStore(this.dir.resolve("trust.p12"), PASSWORD));
		this.bundleProperties.add("spring.ssl.bundle.jks.zk.truststore.password=" + PASSWORD);
		this.bundleProperties.add("spring.ssl.bundle.jks.zk.truststore.type=PKCS12");
	}

	@AfterEach
	void stopServer() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void lockedMethodAndLeaderElectionWorkOverTls() throws Exception {
		startServer(this.authority.issue("zookeeper"));
		runner().withPropertyValues(this.bundleProperties.toArray(String[]::new))
			.withPropertyValues("zklock.ssl.bundle=zk", "zklock.leader.groups=reports")
			.withBean(Stock.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				ZKClientConfig config = client.getZookeeperClient().getZooKeeper().getClientConfig();
				assertThat(config.getBoolean(ZKClientConfig.SECURE_CLIENT)).isTrue();
				assertThat(config.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET))
					.isEqualTo(ClientCnxnSocketNetty.class.getName());
				assertThat(context.getBean(Stock.class).reserve(client, "/zklock/locks/sku-1")).hasSize(1);
				ZkLeadership leadership = context.getBean(ZkLeadership.class);
				await().until(() -> leadership.isLeader("reports"));
				assertThat(client.getChildren().forPath("/zklock/leaders/reports")).hasSize(1);
			});
	}

	@Test
	void pemBundleWorksToo() {
		startServer(this.authority.issue("zookeeper"));
		Issued client = this.authority.issue("orders-service");
		runner().withPropertyValues(
				"spring.ssl.bundle.pem.zk.keystore.certificate=file:"
						+ client.writeCertificatePem(this.dir.resolve("client.crt")),
				"spring.ssl.bundle.pem.zk.keystore.private-key=file:"
						+ client.writePrivateKeyPem(this.dir.resolve("client.key")),
				"spring.ssl.bundle.pem.zk.truststore.certificate=file:"
						+ this.authority.writePem(this.dir.resolve("ca.crt")),
				"zklock.ssl.bundle=zk")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client2 = context.getBean(CuratorFramework.class);
				client2.create().forPath("/pem", "over tls".getBytes());
				assertThat(new String(client2.getData().forPath("/pem"))).isEqualTo("over tls");
			});
	}

	@Test
	void storeFilesArePrivateAndRemovedAtShutdown() {
		startServer(this.authority.issue("zookeeper"));
		List<Path> files = new ArrayList<>();
		runner().withPropertyValues(this.bundleProperties.toArray(String[]::new))
			.withPropertyValues("zklock.ssl.bundle=zk")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				TlsStoreFiles stores = context.getBean(ZooKeeperClientTls.class).getFiles();
				files.add(stores.getKeyStore());
				files.add(stores.getTrustStore());
				files.add(stores.getKeyStore().getParent());
				assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(files.get(0))))
					.isEqualTo("rw-------");
				assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(files.get(1))))
					.isEqualTo("rw-------");
				assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(files.get(2))))
					.isEqualTo("rwx------");
				assertThat(Files.readAllBytes(files.get(0))).isNotEqualTo(Files.readAllBytes(this.dir.resolve("client.p12")));
			});
		assertThat(files).hasSize(3).allSatisfy((file) -> assertThat(file).doesNotExist());
	}

	@Test
	void reloadedBundleIsWrittenToTheStoreFilesForTheNextConnection() {
		startServer(this.authority.issue("zookeeper"));
		runner().withPropertyValues(this.bundleProperties.toArray(String[]::new))
			.withPropertyValues("spring.ssl.bundle.jks.zk.reload-on-update=true",
					"spring.ssl.bundle.watch.file.quiet-period=50ms", "zklock.ssl.bundle=zk")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				TlsStoreFiles stores = context.getBean(ZooKeeperClientTls.class).getFiles();
				assertThat(clientCommonName(stores)).isEqualTo("CN=orders-service");
				this.authority.issue("orders-service-renewed")
					.writeKeyStore(this.dir.resolve("client.p12"), PASSWORD);
				await().atMost(Duration.ofSeconds(30))
					.until(() -> clientCommonName(stores).equals("CN=orders-service-renewed"));
				CuratorFramework client = context.getBean(CuratorFramework.class);
				client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
				await().atMost(Duration.ofSeconds(30))
					.until(() -> client.getZookeeperClient().isConnected() && client.checkExists().forPath("/") != null);
			});
	}

	private static String clientCommonName(TlsStoreFiles stores) throws Exception {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(stores.getKeyStore())) {
			store.load(in, stores.getPassword().toCharArray());
		}
		return ((X509Certificate) store.getCertificate(store.aliases().nextElement())).getSubjectX500Principal()
			.getName();
	}

	@Test
	void serverWhoseCertificateNamesAnotherHostIsRefused() {
		startServer(this.authority.issue("zookeeper", "zookeeper.elsewhere.invalid"));
		runner().withPropertyValues(this.bundleProperties.toArray(String[]::new))
			.withPropertyValues("zklock.ssl.bundle=zk", "zklock.connection-timeout=30s")
			.run((context) -> {
				FailureAnalysis analysis = new ZooKeeperSecurityFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("does not name that host");
				assertThat(analysis.getAction()).contains("'zklock.connect-string'");
			});
	}

	@Test
	void turningHostnameVerificationOffFailsClearlyWhileNettyEnforcesItForTheWholeJvm() {
		assertThat(NettyHostnameVerification.enforcedAlgorithm()).isEqualTo("HTTPS");
		startServer(this.authority.issue("zookeeper", "zookeeper.elsewhere.invalid"));
		long start = System.nanoTime();
		runner().withPropertyValues(this.bundleProperties.toArray(String[]::new))
			.withPropertyValues("zklock.ssl.bundle=zk", "zklock.ssl.hostname-verification=false")
			.run((context) -> {
				FailureAnalysis analysis = new ZooKeeperSecurityFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("zklock.ssl.hostname-verification=false cannot take effect");
				assertThat(analysis.getAction()).contains("'zklock.ssl.hostname-verification=false'")
					.contains("-Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE");
			});
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, ZooKeeperAutoConfiguration.class,
					ZkLockAutoConfiguration.class, ZkLeaderAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + this.server.getConnectString(), "zklock.session-timeout=4s");
	}

	private void startServer(Issued serverCertificate) {
		try {
			Path data = Files.createDirectories(this.dir.resolve("data"));
			this.server = SecureZooKeeperServer.start(data,
					serverCertificate.writeKeyStore(this.dir.resolve("server.p12"), PASSWORD),
					this.authority.writeTrustStore(this.dir.resolve("server-trust.p12"), PASSWORD), PASSWORD, "need");
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	static class Stock {

		@ZkLocked("#p1.substring(#p1.lastIndexOf('/') + 1)")
		public List<String> reserve(CuratorFramework observer, String lockPath) throws Exception {
			return observer.getChildren().forPath(lockPath);
		}

	}

}
