package dev.zklock.autoconfigure;

import dev.zklock.annotation.ZkLeader;
import dev.zklock.annotation.ZkLocked;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class ZkLockDisabledAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockDisabledAutoConfiguration.class, ZooKeeperAutoConfiguration.class,
				ZkLockAutoConfiguration.class, ZkLeaderAutoConfiguration.class));

	@Test
	void disabledWithAnnotatedBeansWarnsOnceNamingEveryMethodAndBean(CapturedOutput output) {
		this.contextRunner.withPropertyValues("zklock.enabled=false")
			.withBean("stock", Stock.class)
			.withBean("nightlyJob", NightlyJob.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(DisabledAnnotationsWarning.class);
				assertThat(output).containsOnlyOnce("zklock is disabled (zklock.enabled=false)")
					.contains("@ZkLocked Stock.reserve(String) of bean 'stock'")
					.contains("@ZkLeader NightlyJob.run() of bean 'nightlyJob'");
			});
	}

	@Test
	void disabledWithoutAnnotatedBeansSaysNothing(CapturedOutput output) {
		this.contextRunner.withPropertyValues("zklock.enabled=false").withBean(Plain.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).doesNotContain("zklock is disabled");
		});
	}

	@Test
	void enabledHasNoWarning() {
		this.contextRunner.withPropertyValues("zklock.fail-fast=false", "zklock.connect-string=127.0.0.1:1")
			.run((context) -> assertThat(context).doesNotHaveBean(DisabledAnnotationsWarning.class));
	}

	static class Stock {

		@ZkLocked(key = "'stock:' + #sku")
		public void reserve(String sku) {
		}

	}

	static class NightlyJob {

		@ZkLeader
		public void run() {
		}

	}

	static class Plain {

		public void run() {
		}

	}

}
