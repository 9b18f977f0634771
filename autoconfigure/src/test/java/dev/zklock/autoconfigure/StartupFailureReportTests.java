package dev.zklock.autoconfigure;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * What a user sees on the console when zklock stops the application from starting.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureReportTests {

	@Test
	void unreachableZooKeeperIsReportedWithTheActionToTake(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run("zklock.connect-string", "127.0.0.1:1",
				"zklock.connection-timeout", "500ms"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("zklock could not connect to ZooKeeper at '127.0.0.1:1' within 500ms")
			.contains("set 'zklock.connect-string'")
			.contains("'zklock.embedded.enabled=true'");
	}

	@Test
	void malformedConnectStringIsReportedWithTheActionToTake(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run("zklock.connect-string", "zk1:2181,,zk2:2181"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Invalid ZooKeeper connect string 'zk1:2181,,zk2:2181': it has an empty server entry")
			.contains("Set 'zklock.connect-string'");
	}

	@Test
	void negativeSessionTimeoutIsReportedWithThePropertyAndTheFix(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run("zklock.session-timeout", "-1s"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Invalid value '-1000ms' for 'zklock.session-timeout': it must be positive")
			.contains("Set 'zklock.session-timeout' to a positive duration");
	}

	private static void run(String... properties) {
		SpringApplication application = new SpringApplication(EmptyApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		Map<String, Object> defaults = new HashMap<>();
		for (int i = 0; i < properties.length; i += 2) {
			defaults.put(properties[i], properties[i + 1]);
		}
		application.setDefaultProperties(Map.copyOf(defaults));
		application.run().close();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(ZooKeeperAutoConfiguration.class)
	static class EmptyApplication {

	}

}
