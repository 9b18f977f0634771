package dev.zklock.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded server is quiet: its banner and INFO lines only when the application asks for
 * them.
 */
@ExtendWith(OutputCaptureExtension.class)
class EmbeddedServerLogTests {

	@Test
	void theServerLogsWarningsOnlyByDefault(CapturedOutput output) {
		run();
		// ZooKeeper logs its banner and environment once a JVM: its own start line stands for them.
		assertThat(output).contains("Started").doesNotContain("ZooKeeperServerMain").doesNotContain("Starting server");
	}

	@Test
	void theServerLogsAtTheLevelTheApplicationSets(CapturedOutput output) {
		run("--logging.level.org.apache.zookeeper.server=info");
		assertThat(output).contains("Starting server");
	}

	private static void run(String... args) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(EmbeddedServerApplication.class)
			.web(WebApplicationType.NONE)
			.properties("zklock.embedded.enabled=true", "spring.main.banner-mode=off")
			.run(args)) {
			assertThat(context.getBean(EmbeddedZooKeeperServer.class).getPort()).isPositive();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(ZooKeeperAutoConfiguration.class)
	static class EmbeddedServerApplication {

	}

}
