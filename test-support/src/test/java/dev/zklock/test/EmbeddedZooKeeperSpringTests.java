package dev.zklock.test;

import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring tests get the server's address whatever order {@code @SpringBootTest} and
 * {@code @EmbeddedZooKeeper} are declared in, and their contexts (with lifecycle beans, which
 * Spring stops after the class) end cleanly.
 */
class EmbeddedZooKeeperSpringTests {

	@Nested
	@SpringBootTest(classes = LifecycleConfiguration.class)
	@EmbeddedZooKeeper
	class SpringBootTestFirst {

		@Value("${zklock.connect-string}")
		String connectString;

		@Autowired
		Running running;

		@Test
		void getsTheConnectString(ZooKeeperTestServer server) {
			assertThat(this.connectString).isEqualTo(server.getConnectString());
			assertThat(this.running.isRunning()).isTrue();
		}

	}

	@Nested
	@EmbeddedZooKeeper
	@SpringBootTest(classes = LifecycleConfiguration.class)
	class EmbeddedZooKeeperFirst {

		@Value("${zklock.connect-string}")
		String connectString;

		@Test
		void getsTheConnectString(ZooKeeperTestServer server) {
			assertThat(this.connectString).isEqualTo(server.getConnectString());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LifecycleConfiguration {

		@Bean
		Running running() {
			return new Running();
		}

	}

	static class Running implements SmartLifecycle {

		private final AtomicBoolean running = new AtomicBoolean();

		@Override
		public void start() {
			this.running.set(true);
		}

		@Override
		public void stop() {
			this.running.set(false);
		}

		@Override
		public boolean isRunning() {
			return this.running.get();
		}

	}

}
