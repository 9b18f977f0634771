package dev.zklock.autoconfigure;

import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;

import dev.zklock.ZkLockTemplate;
import dev.zklock.micrometer.LockObservations;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of observations of lock waits and locked calls, when the application has an
 * {@link ObservationRegistry}, so that traces show them as spans.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ZkLockAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({ CuratorFramework.class, ObservationRegistry.class })
@ConditionalOnBean({ ObservationRegistry.class, ZkLockTemplate.class })
public final class ZkLockObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockObservations zklockLockObservations(ObservationRegistry registry) {
		return new LockObservations(registry);
	}

}
