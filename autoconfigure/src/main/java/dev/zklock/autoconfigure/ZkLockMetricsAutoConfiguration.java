package dev.zklock.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;

import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockTemplate;
import dev.zklock.micrometer.ForcedReleaseMetrics;
import dev.zklock.micrometer.LeadershipMetrics;
import dev.zklock.micrometer.LockGauges;
import dev.zklock.micrometer.LockMetrics;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of Micrometer metrics of locks and leadership, when Micrometer is present
 * and the application has a {@link MeterRegistry}. The lock metrics follow the auto-configured
 * {@link ZkLockTemplate}; a template the application creates itself is followed when it is
 * given the {@link dev.zklock.lock.LockCallListener} beans.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { ZkLockAutoConfiguration.class, ZkLeaderAutoConfiguration.class },
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple."
						+ "SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass({ CuratorFramework.class, MeterRegistry.class })
@ConditionalOnBean(MeterRegistry.class)
@EnableConfigurationProperties(ZkLockProperties.class)
public final class ZkLockMetricsAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(ZkLockTemplate.class)
	static final class LockMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		LockMetrics zklockLockMetrics(MeterRegistry registry, ZkLockProperties properties) {
			ZkLockProperties.Metrics metrics = properties.getMetrics();
			return new LockMetrics(registry, metrics.getKeyTag() == ZkLockProperties.Metrics.KeyTag.EXPRESSION,
					metrics.getMaxKeyTags());
		}

		@Bean
		@ConditionalOnMissingBean
		LockGauges zklockLockGauges(ZkLockTemplate template) {
			return new LockGauges(template);
		}

		@Bean
		@ConditionalOnMissingBean
		ForcedReleaseMetrics zklockForcedReleaseMetrics(MeterRegistry registry) {
			return new ForcedReleaseMetrics(registry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(ZkLeadership.class)
	static final class LeadershipMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		LeadershipMetrics zklockLeadershipMetrics(MeterRegistry registry, ZkLeadership leadership,
				ZkLockProperties properties) {
			return new LeadershipMetrics(registry, leadership, properties.getLeader().getMinParticipants());
		}

	}

}
