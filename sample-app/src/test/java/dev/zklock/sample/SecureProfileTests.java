package dev.zklock.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's {@code secure} profile as its README section runs it: certificates made by
 * {@code scripts/dev-certificates.sh}, the embedded server on TLS only, the application
 * connected with its client certificate and known to ZooKeeper by it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles("secure")
class SecureProfileTests {

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void certificates(DynamicPropertyRegistry registry) throws IOException, InterruptedException {
		Path folder = Files.createDirectories(Path.of("target")).toAbsolutePath().resolve("dev-tls-" + System.nanoTime());
		ProcessBuilder builder = new ProcessBuilder("bash", Path.of("..", "scripts", "dev-certificates.sh").toString(),
				folder.toString())
			.redirectErrorStream(true)
			.redirectOutput(folder.resolveSibling(folder.getFileName() + ".log").toFile());
		builder.environment().put("KEYTOOL", Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		Process script = builder.start();
		script.getOutputStream().close();
		assertThat(script.waitFor(60, TimeUnit.SECONDS)).as("dev-certificates.sh finished").isTrue();
		assertThat(script.exitValue()).as("dev-certificates.sh exit code (see its log beside %s)", folder).isZero();
		registry.add("sample.tls.dir", folder::toString);
	}

	@Test
	void theApplicationReachesTheEmbeddedServerOverTlsWithItsCertificate() {
		Http http = new Http(this.port);
		Http.Response health = http.get("/actuator/health");
		assertThat(health.status()).isEqualTo(200);
		JsonNode details = health.body().path("components").path("zookeeper").path("details");
		assertThat(details.path("transport").asString()).isEqualTo("TLS");
		assertThat(details.path("authenticatedAs").path(0).asString()).isEqualTo("x509:CN=inventory");
		assertThat(http.post("/stock/sku-1/reserve?qty=1").status()).isEqualTo(200);
	}

}
