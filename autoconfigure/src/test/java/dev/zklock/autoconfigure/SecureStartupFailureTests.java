package dev.zklock.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.zklock.autoconfigure.TestCertificates.Authority;
import dev.zklock.autoconfigure.TestCertificates.Issued;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The usual TLS mistakes fail the startup quickly, well within the connection timeout, with an
 * analysis that says what is wrong and names the property to fix.
 */
class SecureStartupFailureTests {

	private static final String PASSWORD = "test-secret";

	private static final Duration WELL_WITHIN_TIMEOUT = Duration.ofSeconds(12);

	@TempDir
	Path dir;

	private final Authority authority = TestCertificates.authority("zklock test CA");

	private SecureZooKeeperServer server;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, ZooKeeperAutoConfiguration.class))
		.withPropertyValues("zklock.connection-timeout=30s");

	@BeforeEach
	void startServer() throws Exception {
		this.server = SecureZooKeeperServer.start(Files.createDirectories(this.dir.resolve("data")),
				this.authority.issue("zookeeper").writeKeyStore(this.dir.resolve("server.p12"), PASSWORD),
				this.authority.writeTrustStore(this.dir.resolve("server-trust.p12"), PASSWORD), PASSWORD, "need");
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void unknownBundle() {
		this.runner.withPropertyValues("zklock.connect-string=" + this.server.getConnectString(),
				"zklock.ssl.bundle=nowhere")
			.run((context) -> assertThat(analysis(context))
				.satisfies((analysis) -> assertThat(analysis.getDescription())
					.contains("zklock.ssl.bundle names SSL bundle 'nowhere', which does not exist"))
				.satisfies((analysis) -> assertThat(analysis.getAction()).contains("Set 'zklock.ssl.bundle'")));
	}

	@Test
	void plaintextClientAgainstTlsOnlyPort() {
		long start = System.nanoTime();
		this.runner.withPropertyValues("zklock.connect-string=" + this.server.getConnectString())
			.run((context) -> assertThat(analysis(context))
				.satisfies((analysis) -> assertThat(analysis.getDescription())
					.contains("accepts TLS connections only, and the client connects in plaintext"))
				.satisfies((analysis) -> assertThat(analysis.getAction()).contains("Set 'zklock.ssl.bundle'")));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WELL_WITHIN_TIMEOUT);
	}

	@Test
	void tlsClientAgainstPlaintextServer() {
		try (ZooKeeperTestServer plain = ZooKeeperTestServer.start(200)) {
			Issued client = this.authority.issue("orders-service");
			long start = System.nanoTime();
			this.runner.withPropertyValues(bundle(client, this.authority))
				.withPropertyValues("zklock.connect-string=" + plain.getConnectString(), "zklock.ssl.bundle=zk")
				.run((context) -> assertThat(analysis(context))
					.satisfies((analysis) -> assertThat(analysis.getDescription()).contains("does not speak TLS"))
					.satisfies((analysis) -> assertThat(analysis.getAction()).contains("'zklock.connect-string'")
						.contains("'zklock.ssl.bundle'")));
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WELL_WITHIN_TIMEOUT);
		}
	}

	@Test
	void untrustedServerCertificate() {
		Authority other = TestCertificates.authority("another CA");
		long start = System.nanoTime();
		this.runner.withPropertyValues(bundle(this.authority.issue("orders-service"), other))
			.withPropertyValues("zklock.connect-string=" + this.server.getConnectString(), "zklock.ssl.bundle=zk")
			.run((context) -> assertThat(analysis(context))
				.satisfies((analysis) -> assertThat(analysis.getDescription()).contains("is not trusted by SSL bundle 'zk'"))
				.satisfies((analysis) -> assertThat(analysis.getAction()).contains("spring.ssl.bundle.*.zk.truststore")));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WELL_WITHIN_TIMEOUT);
	}

	@Test
	void rejectedClientCertificate() {
		Authority other = TestCertificates.authority("another CA");
		long start = System.nanoTime();
		this.runner.withPropertyValues(bundle(other.issue("intruder"), this.authority))
			.withPropertyValues("zklock.connect-string=" + this.server.getConnectString(), "zklock.ssl.bundle=zk")
			.run((context) -> assertThat(analysis(context))
				.satisfies((analysis) -> assertThat(analysis.getDescription())
					.contains("rejected the client certificate of SSL bundle 'zk'"))
				.satisfies((analysis) -> assertThat(analysis.getAction()).contains("spring.ssl.bundle.*.zk.keystore")));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WELL_WITHIN_TIMEOUT);
	}

	private String[] bundle(Issued client, Authority trusted) {
		String suffix = Long.toString(System.nanoTime());
		return new String[] {
				"spring.ssl.bundle.jks.zk.keystore.location=file:"
						+ client.writeKeyStore(this.dir.resolve("client-" + suffix + ".p12"), PASSWORD),
				"spring.ssl.bundle.jks.zk.keystore.password=" + PASSWORD, "spring.ssl.bundle.jks.zk.keystore.type=PKCS12",
				"spring.ssl.bundle.jks.zk.truststore.location=file:"
						+ trusted.writeTrustStore(this.dir.resolve("trust-" + suffix + ".p12"), PASSWORD),
				"spring.ssl.bundle.jks.zk.truststore.password=" + PASSWORD,
				"spring.ssl.bundle.jks.zk.truststore.type=PKCS12" };
	}

	private static FailureAnalysis analysis(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new ZooKeeperSecurityFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).isNotNull();
		return analysis;
	}

}
