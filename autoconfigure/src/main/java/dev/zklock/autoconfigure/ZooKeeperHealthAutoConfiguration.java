package dev.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.actuate.ZooKeeperHealthIndicator;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code zookeeper} health indicator, when Spring Boot's health
 * support is present. Disable it with {@code management.health.zookeeper.enabled=false}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ZooKeeperAutoConfiguration.class)
@ConditionalOnClass({ CuratorFramework.class, HealthIndicator.class })
@ConditionalOnBean(CuratorFramework.class)
@ConditionalOnEnabledHealthIndicator("zookeeper")
public final class ZooKeeperHealthAutoConfiguration {

	@Bean(name = "zookeeperHealthIndicator")
	@ConditionalOnMissingBean(name = "zookeeperHealthIndicator")
	ZooKeeperHealthIndicator zookeeperHealthIndicator(CuratorFramework client) {
		return new ZooKeeperHealthIndicator(client);
	}

}
