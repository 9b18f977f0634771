package dev.zklock.leader;


import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.support.InvalidAnnotationException;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.EmbeddedZooKeeperInitializer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ZkLeader} used in ways that cannot work fails the startup, naming the bean, the method
 * and what to fix.
 */
@EmbeddedZooKeeper
class ZkLeaderValidationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(EmbeddedZooKeeperInitializer.of(ZkLeaderValidationTests.class))
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLeaderAutoConfiguration.class))
		.withPropertyValues("zklock.session-timeout=2s");

	@Test
	void skipOnAMethodReturningAPrimitive() {
		this.contextRunner.withBean("counter", SkipPrimitive.class)
			.run(failsWith("Invalid @ZkLeader on SkipPrimitive.count() of bean 'counter': SKIP needs a method that "
					+ "can return without a value, but it returns the primitive int; return void, a wrapper type "
					+ "(Integer) or an Optional, or use THROW"));
	}

	@Test
	void throwOnAMethodReturningAPrimitiveIsFine() {
		this.contextRunner.withBean("counter", ThrowPrimitive.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void skipOnAPrimitiveCoveredByTheClassAnnotation() {
		this.contextRunner.withBean("counter", ClassLevelPrimitive.class)
			.run(failsWith("Invalid @ZkLeader on ClassLevelPrimitive.count() of bean 'counter': SKIP needs"));
	}

	@Test
	void classAnnotationLeavesEqualsHashCodeAndToStringAlone() {
		this.contextRunner.withBean("job", ClassLevelWithObjectMethods.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void privateMethod() {
		this.contextRunner.withBean("job", PrivateMethod.class)
			.run(failsWith("Invalid @ZkLeader on PrivateMethod.run() of bean 'job': the method is private"));
	}

	@Test
	void finalMethod() {
		this.contextRunner.withBean("job", FinalMethod.class)
			.run(failsWith("Invalid @ZkLeader on FinalMethod.run() of bean 'job': the method is final"));
	}

	@Test
	void staticMethod() {
		this.contextRunner.withUserConfiguration(StaticMethodConfiguration.class)
			.run(failsWith("Invalid @ZkLeader on StaticMethod.run() of bean 'job': the method is static"));
	}

	@Test
	void publicFinalMethodCoveredByTheClassAnnotation() {
		this.contextRunner.withBean("job", ClassLevelFinalMethod.class)
			.run(failsWith("Invalid @ZkLeader on ClassLevelFinalMethod.run() of bean 'job': the method is final"));
	}

	@Test
	void groupThatIsNotANodeName() {
		this.contextRunner.withBean("job", SlashInGroup.class)
			.run(failsWith("Invalid @ZkLeader on SlashInGroup.run() of bean 'job': the group name 'eu/orders' "
					+ "contains '/'"));
	}

	@Test
	void unresolvablePlaceholder() {
		this.contextRunner.withBean("job", MissingPlaceholder.class)
			.run(failsWith("Invalid @ZkLeader on MissingPlaceholder.run() of bean 'job': Could not resolve "
					+ "placeholder 'jobs.group'"));
	}

	@Test
	void defaultGroupThatIsNotANodeNameFailsOnlyWhenUsed() {
		ApplicationContextRunner runner = this.contextRunner.withPropertyValues("spring.application.name=eu/orders");
		runner.run((context) -> assertThat(context).hasNotFailed());
		runner.withBean("job", DefaultGroup.class)
			.run(failsWith("Invalid @ZkLeader on DefaultGroup.run() of bean 'job': the group name 'eu/orders' "
					+ "contains '/'; a group is one ZooKeeper node under zklock.leader.base-path; it is the default "
					+ "group, so name a group in the annotation or set zklock.leader.default-group"));
	}

	private static ContextConsumer<AssertableApplicationContext> failsWith(String message) {
		return (context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure != null && !(failure instanceof InvalidAnnotationException)) {
				failure = failure.getCause();
			}
			assertThat(failure).as("InvalidAnnotationException among the causes of %s", context.getStartupFailure())
				.isNotNull();
			assertThat(failure.getMessage()).startsWith(message);
		};
	}

	static class SkipPrimitive {

		@ZkLeader("jobs")
		public int count() {
			return 1;
		}

	}

	static class ThrowPrimitive {

		@ZkLeader(group = "jobs", whenNotLeader = WhenNotLeader.THROW)
		public int count() {
			return 1;
		}

	}

	@ZkLeader("jobs")
	static class ClassLevelPrimitive {

		public void run() {
		}

		public int count() {
			return 1;
		}

	}

	@ZkLeader("jobs")
	static class ClassLevelWithObjectMethods {

		public void run() {
		}

		@Override
		public boolean equals(Object other) {
			return this == other;
		}

		@Override
		public int hashCode() {
			return 1;
		}

		@Override
		public String toString() {
			return "job";
		}

	}

	static class PrivateMethod {

		@ZkLeader("jobs")
		private void run() {
		}

	}

	static class FinalMethod {

		@ZkLeader("jobs")
		public final void run() {
		}

	}

	static class StaticMethod {

		@ZkLeader("jobs")
		public static void run() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class StaticMethodConfiguration {

		@Bean
		StaticMethod job() {
			return new StaticMethod();
		}

	}

	@ZkLeader("jobs")
	static class ClassLevelFinalMethod {

		public final void run() {
		}

	}

	static class SlashInGroup {

		@ZkLeader("eu/orders")
		public void run() {
		}

	}

	static class MissingPlaceholder {

		@ZkLeader("${jobs.group}")
		public void run() {
		}

	}

	static class DefaultGroup {

		@ZkLeader
		public void run() {
		}

	}

}
