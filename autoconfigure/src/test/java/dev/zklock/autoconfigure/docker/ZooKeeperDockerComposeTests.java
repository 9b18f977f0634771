package dev.zklock.autoconfigure.docker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperConnectionDetails;
import dev.zklock.autoconfigure.testcontainers.LocalZooKeeperImage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with a {@code compose.yaml} that declares a {@code zookeeper} service and no
 * {@code zklock.*} property: Spring Boot starts the service with {@code docker compose}, zklock
 * connects to it, and the service is taken down when the application stops. Needs Docker Compose
 * v2 (Spring Boot's Docker Compose support does not work with v1) besides the local image.
 */
@LocalZooKeeperImage.Required
@ExtendWith(ZooKeeperDockerComposeTests.ComposeV2.class)
@Timeout(300)
class ZooKeeperDockerComposeTests {

	@Test
	void applicationStartsTheComposeServiceAndConnectsWithNoZklockProperty() throws IOException {
		Path directory = Files.createDirectories(Path.of("target", "compose-test"));
		Path composeFile = directory.resolve("compose.yaml");
		Files.writeString(composeFile, """
				services:
				  zookeeper:
				    image: '%s'
				    pull_policy: never
				    ports:
				      - '127.0.0.1::2181'
				""".formatted(LocalZooKeeperImage.NAME.asCanonicalNameString()), StandardCharsets.UTF_8);
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run(
				"--spring.docker.compose.enabled=true", "--spring.docker.compose.file=" + composeFile.toAbsolutePath(),
				"--spring.docker.compose.skip.in-tests=false", "--spring.docker.compose.stop.command=down",
				"--spring.docker.compose.readiness.timeout=2m")) {
			assertThat(context.getEnvironment().getProperty("zklock.connect-string")).isNull();
			assertThat(context.getBean(ZooKeeperConnectionDetails.class).getConnectString())
				.isNotEqualTo("localhost:2181");
			long token = context.getBean(ZkLockTemplate.class).execute("compose", (lock) -> lock.fencingToken());
			assertThat(token).isPositive();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class })
	static class Application {

	}

	static final class ComposeV2 implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			if (answers("docker", "compose", "version") || answers("docker-compose", "version", "--format", "json")) {
				return ConditionEvaluationResult.enabled("Docker Compose v2 is installed");
			}
			return ConditionEvaluationResult.disabled("Docker Compose test skipped: Spring Boot needs Docker Compose "
					+ "v2 ('docker compose' or a v2 'docker-compose'), which is not installed; "
					+ "scripts/prepare-docker.sh installs it");
		}

		private static boolean answers(String... command) {
			try {
				Process process = new ProcessBuilder(command).redirectErrorStream(true)
					.redirectOutput(ProcessBuilder.Redirect.DISCARD)
					.start();
				if (!process.waitFor(20, TimeUnit.SECONDS)) {
					process.destroyForcibly();
					return false;
				}
				return process.exitValue() == 0;
			}
			catch (IOException ex) {
				return false;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}

	}

}
