package dev.zklock.autoconfigure.integration;

import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.integration.ZkLockRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * Auto-configuration of Spring Integration on zklock: when Spring Integration
 * ({@code spring-integration-core}) is on the classpath, a {@link ZkLockRegistry} on the
 * application's {@link ZkLockTemplate} is the {@link LockRegistry} bean, unless the application
 * defines its own.
 *
 * @since 0.2.0
 */
@AutoConfiguration(after = ZkLockAutoConfiguration.class)
@ConditionalOnClass(LockRegistry.class)
@ConditionalOnBean(ZkLockTemplate.class)
public final class ZkLockIntegrationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockRegistry.class)
	ZkLockRegistry zkLockRegistry(ZkLockTemplate zkLockTemplate) {
		return new ZkLockRegistry(zkLockTemplate);
	}

}
