package dev.zklock.autoconfigure;

import dev.zklock.LeadershipEvent;
import dev.zklock.ZkLeadership;
import dev.zklock.leader.LeaderMethods;
import dev.zklock.leader.LeaderReadiness;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of a readiness that follows the leadership of the group named by
 * {@code zklock.leader.readiness-group}, for active-passive deployments: it replaces the
 * application's {@link ApplicationAvailability} with a {@link LeaderReadiness}.
 *
 * @since 0.2.0
 */
@AutoConfiguration(after = ZkLeaderAutoConfiguration.class, before = ApplicationAvailabilityAutoConfiguration.class)
@ConditionalOnProperty("zklock.leader.readiness-group")
@ConditionalOnBean(LeaderMethods.class)
public final class ZkLeaderReadinessAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ApplicationAvailability.class)
	LeaderReadiness applicationAvailability(ZkLockProperties properties, ObjectProvider<ZkLeadership> leadership,
			LeaderMethods zklockLeaderMethods) {
		String group = properties.getLeader().getReadinessGroup();
		return new LeaderReadiness((group != null) ? group : "", leadership::getObject, zklockLeaderMethods);
	}

	@Bean
	@ConditionalOnBean(LeaderReadiness.class)
	ApplicationListener<LeadershipEvent> zklockLeaderReadinessFollower(LeaderReadiness readiness,
			ApplicationEventPublisher publisher) {
		return readiness.follower(publisher);
	}

}
