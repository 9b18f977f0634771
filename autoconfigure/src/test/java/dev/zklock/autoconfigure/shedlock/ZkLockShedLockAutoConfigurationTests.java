package dev.zklock.autoconfigure.shedlock;

import java.time.Duration;
import java.util.Optional;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;

import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.shedlock.ZkLockProvider;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.EmbeddedZooKeeperInitializer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

@EmbeddedZooKeeper
class ZkLockShedLockAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(EmbeddedZooKeeperInitializer.of(ZkLockShedLockAutoConfigurationTests.class))
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkLockShedLockAutoConfiguration.class));

	@Test
	void shedLockOnTheClasspathGetsALockProviderOnTheTemplate() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LockProvider.class).hasSingleBean(ZkLockProvider.class);
			LockProvider provider = context.getBean(LockProvider.class);
			LockConfiguration job = new LockConfiguration(ClockProvider.now(), "nightly-report", Duration.ofMinutes(1),
					Duration.ZERO);
			Optional<SimpleLock> lock = provider.lock(job);
			assertThat(lock).isPresent();
			assertThat(provider.lock(job)).isEmpty();
			lock.get().unlock();
			Optional<SimpleLock> again = provider.lock(job);
			assertThat(again).isPresent();
			again.get().unlock();
		});
	}

	@Test
	void theApplicationsOwnLockProviderWins() {
		LockProvider own = (configuration) -> Optional.empty();
		this.contextRunner.withBean(LockProvider.class, () -> own)
			.run((context) -> assertThat(context).hasSingleBean(LockProvider.class)
				.doesNotHaveBean(ZkLockProvider.class)
				.getBean(LockProvider.class)
				.isSameAs(own));
	}

	@Test
	void withoutShedLockThereIsNoLockProvider() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(LockProvider.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLockProvider.class));
	}

	@Test
	void withoutZkLockTemplateThereIsNoLockProvider() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockShedLockAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LockProvider.class));
	}

}
