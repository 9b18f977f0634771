package dev.zklock.autoconfigure.integration;

import java.util.concurrent.locks.Lock;

import org.junit.jupiter.api.Test;

import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.integration.ZkLockRegistry;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.EmbeddedZooKeeperInitializer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

import static org.assertj.core.api.Assertions.assertThat;

@EmbeddedZooKeeper
class ZkLockIntegrationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(EmbeddedZooKeeperInitializer.of(ZkLockIntegrationAutoConfigurationTests.class))
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkLockIntegrationAutoConfiguration.class));

	@Test
	void springIntegrationOnTheClasspathGetsALockRegistryOnTheTemplate() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LockRegistry.class).hasSingleBean(ZkLockRegistry.class);
			Lock lock = context.getBean(LockRegistry.class).obtain("orders");
			lock.lock();
			try {
				assertThat(context.getBean(ZkLockTemplate.class).heldLocks())
					.anySatisfy((held) -> assertThat(held.key()).isEqualTo("orders"));
			}
			finally {
				lock.unlock();
			}
		});
	}

	@Test
	void theApplicationsOwnLockRegistryWins() {
		this.contextRunner.withBean(LockRegistry.class, DefaultLockRegistry::new)
			.run((context) -> assertThat(context).hasSingleBean(LockRegistry.class)
				.doesNotHaveBean(ZkLockRegistry.class)
				.getBean(LockRegistry.class)
				.isInstanceOf(DefaultLockRegistry.class));
	}

	@Test
	void withoutSpringIntegrationThereIsNoLockRegistry() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(LockRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLockRegistry.class));
	}

}
