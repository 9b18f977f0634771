package dev.zklock.leader;

import java.time.Duration;

import dev.zklock.annotation.ZkLeaderComponent;
import dev.zklock.autoconfigure.ZkLeaderAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.test.context.assertj.ApplicationContextAssertProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How {@code @ZkLeaderComponent} is declared and checked at startup, with a fixed leadership
 * ({@code zklock.leader.test-mode}) and no ZooKeeper.
 */
class ZkLeaderComponentTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLeaderAutoConfiguration.class))
		.withPropertyValues("zklock.leader.test-mode=always");

	@Test
	void componentOnABeanMethodStartsWhenTheApplicationIsReadyAndStopsWithTheContext() {
		this.contextRunner.withUserConfiguration(BeanMethodComponent.class).run((context) -> {
			Worker worker = context.getBean(Worker.class);
			assertThat(worker.isAutoStartup()).isFalse();
			assertThat(worker.isRunning()).as("not started with the context").isFalse();
			assertThat(context.getBean(LeaderComponents.class).groups()).containsExactly("feed");
			ready(context);
			await().atMost(Duration.ofSeconds(10)).until(worker::isRunning);
			context.close();
			assertThat(worker.isRunning()).isFalse();
		});
	}

	@Test
	void componentNeverStartsOnAnInstanceThatNeverLeads() {
		this.contextRunner.withUserConfiguration(AnnotatedClassComponent.class)
			.withPropertyValues("zklock.leader.test-mode=never")
			.run((context) -> {
				ready(context);
				LeaderComponents components = context.getBean(LeaderComponents.class);
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(components.describe("reports")).singleElement()
						.satisfies((info) -> assertThat(info.running()).isFalse()));
				assertThat(context.getBean(AnnotatedWorker.class).isRunning()).isFalse();
			});
	}

	@Test
	void contextStartedAgainDoesNotStartTheComponentOfAnInstanceThatNeverLeads() {
		this.contextRunner.withUserConfiguration(AnnotatedClassComponent.class)
			.withPropertyValues("zklock.leader.test-mode=never")
			.run((context) -> {
				ready(context);
				context.stop();
				context.start();
				LeaderComponents components = context.getBean(LeaderComponents.class);
				context.getBean(AnnotatedWorker.class).start();
				components.stopAll(); // After the requested starts: the thread has handled them.
				assertThat(context.getBean(AnnotatedWorker.class).starts()).isZero();
			});
	}

	@Test
	void childContextClosingLeavesTheParentsComponentsRunning() {
		this.contextRunner.withUserConfiguration(AnnotatedClassComponent.class).run((context) -> {
			ready(context);
			AnnotatedWorker worker = context.getBean(AnnotatedWorker.class);
			await().atMost(Duration.ofSeconds(10)).until(worker::isRunning);
			// A child context (a management server's, a client's named context) publishes its own
			// events to the parent's listeners too.
			try (AnnotationConfigApplicationContext child = new AnnotationConfigApplicationContext()) {
				child.setParent(context);
				child.refresh();
				ready(child);
			}
			LeaderComponents components = context.getBean(LeaderComponents.class);
			components.requestStart("reports"); // After the child's events: the thread has handled them.
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(components.describe("reports")).singleElement()
					.satisfies((info) -> assertThat(info.running()).isTrue()));
			assertThat(worker.isRunning()).as("the parent's component, after a child context closed").isTrue();
			assertThat(worker.stops()).isZero();
			context.close();
			assertThat(worker.isRunning()).isFalse();
		});
	}

	@Test
	void finalClassFailsTheStartupSayingToMakeItNonFinal() {
		this.contextRunner.withUserConfiguration(FinalClassComponent.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("Invalid @ZkLeaderComponent on bean 'worker'")
				.hasMessageContaining("make its class non-final");
		});
	}

	@Test
	void beanThatIsNotASmartLifecycleFailsTheStartup() {
		this.contextRunner.withUserConfiguration(NotALifecycle.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("Invalid @ZkLeaderComponent on bean 'plain'")
				.hasMessageContaining("not a SmartLifecycle");
		});
	}

	@Test
	void invalidGroupFailsTheStartupNamingIt() {
		this.contextRunner.withUserConfiguration(InvalidGroup.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("Invalid @ZkLeaderComponent on bean 'worker'")
				.hasMessageContaining("a/b");
		});
	}

	/**
	 * Publish the readiness of a context as Spring Boot does: naming the context itself, not the
	 * test's assertable view of it.
	 */
	private static void ready(ConfigurableApplicationContext context) {
		ConfigurableApplicationContext source = (context instanceof ApplicationContextAssertProvider<?> provider)
				? (ConfigurableApplicationContext) provider.getSourceApplicationContext() : context;
		context.publishEvent(new ApplicationReadyEvent(new SpringApplication(), new String[0], source, Duration.ZERO));
	}

	@Configuration(proxyBeanMethods = false)
	static class BeanMethodComponent {

		@Bean
		@ZkLeaderComponent("feed")
		Worker worker() {
			return new Worker();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedClassComponent {

		@Bean
		AnnotatedWorker worker() {
			return new AnnotatedWorker();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FinalClassComponent {

		@Bean
		@ZkLeaderComponent("feed")
		FinalWorker worker() {
			return new FinalWorker();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NotALifecycle {

		@Bean
		@ZkLeaderComponent("feed")
		Object plain() {
			return new Object();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InvalidGroup {

		@Bean
		@ZkLeaderComponent("a/b")
		Worker worker() {
			return new Worker();
		}

	}

	static class Worker implements SmartLifecycle {

		private volatile boolean running;

		private volatile int starts;

		private volatile int stops;

		@Override
		public void start() {
			this.starts++;
			this.running = true;
		}

		@Override
		public void stop() {
			this.stops++;
			this.running = false;
		}

		/**
		 * Return how many times the bean was started: a method, so that the proxy around the
		 * bean reads its target's count.
		 */
		public int starts() {
			return this.starts;
		}

		public int stops() {
			return this.stops;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

	}

	@ZkLeaderComponent("reports")
	static class AnnotatedWorker extends Worker {

	}

	static final class FinalWorker extends Worker {

		@Override
		public boolean isAutoStartup() {
			return false;
		}

	}

}
