package dev.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.lock.LongHoldWarnings;

import dev.zklock.ZkLeadership;
import dev.zklock.actuate.LeadershipHealthIndicator;
import dev.zklock.actuate.ZooKeeperHealthIndicator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Auto-configuration of the {@code zookeeper} health indicator, when Spring Boot's health
 * support is present, and of the {@code zklockLeadership} indicator of the groups that have a
 * minimum number of participants ({@code zklock.leader.min-participants}). Disable it with {@code management.health.zookeeper.enabled=false}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
		ZkLeaderAutoConfiguration.class })
@ConditionalOnClass({ CuratorFramework.class, HealthIndicator.class })
@ConditionalOnBean(CuratorFramework.class)
@ConditionalOnEnabledHealthIndicator("zookeeper")
@EnableConfigurationProperties(ZkLockProperties.class)
public final class ZooKeeperHealthAutoConfiguration {

	@Bean(name = "zookeeperHealthIndicator")
	@ConditionalOnMissingBean(name = "zookeeperHealthIndicator")
	ZooKeeperHealthIndicator zookeeperHealthIndicator(CuratorFramework client,
			ObjectProvider<LongHoldWarnings> longHolds) {
		return new ZooKeeperHealthIndicator(client, longHolds.getIfAvailable());
	}

	@Bean(name = "zklockLeadershipHealthIndicator")
	@ConditionalOnMissingBean(name = "zklockLeadershipHealthIndicator")
	@ConditionalOnBean(ZkLeadership.class)
	@Conditional(OnMinParticipantsCondition.class)
	LeadershipHealthIndicator zklockLeadershipHealthIndicator(ZkLeadership leadership, ZkLockProperties properties) {
		return new LeadershipHealthIndicator(leadership, properties.getLeader().getMinParticipants());
	}

	/**
	 * Matches when a group has a minimum number of participants.
	 */
	static final class OnMinParticipantsCondition extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			boolean any = Binder.get(context.getEnvironment())
				.bind("zklock.leader.min-participants", Bindable.mapOf(String.class, Integer.class))
				.map((minimums) -> !minimums.isEmpty())
				.orElse(false);
			return any ? ConditionOutcome.match("zklock.leader.min-participants is set")
					: ConditionOutcome.noMatch("zklock.leader.min-participants is not set");
		}

	}

}
