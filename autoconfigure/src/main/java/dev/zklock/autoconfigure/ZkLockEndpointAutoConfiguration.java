package dev.zklock.autoconfigure;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.ZkLeadership;
import dev.zklock.leader.LeaderComponents;
import dev.zklock.ZkLockTemplate;
import dev.zklock.actuate.ZkLockClusterEndpoint;
import dev.zklock.actuate.ZkLockEndpoint;
import dev.zklock.cluster.ClusterRelease;
import dev.zklock.cluster.ClusterView;
import dev.zklock.cluster.ForcedReleaseListener;
import dev.zklock.cluster.ListingClients;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code zklock} actuator endpoint, when Actuator is present and the
 * application exposes the endpoint. Its default access is read-only: yielding leadership through
 * it also takes {@code management.endpoint.zklock.access=unrestricted}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
		ZkLeaderAutoConfiguration.class })
@ConditionalOnClass({ CuratorFramework.class, Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(CuratorFramework.class)
@EnableConfigurationProperties(ZkLockProperties.class)
public final class ZkLockEndpointAutoConfiguration {

	/**
	 * How long a forced release waits for the owning instance to confirm that its holders know.
	 */
	static final Duration RELEASE_OWNER_WAIT = Duration.ofSeconds(5);

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	ZkLockEndpoint zkLockEndpoint(CuratorFramework client, ObjectProvider<ZkLockTemplate> template,
			ObjectProvider<ZkLeadership> leadership, ObjectProvider<LeaderComponents> components) {
		return new ZkLockEndpoint(client, template.getIfAvailable(), leadership.getIfAvailable(),
				components.getIfAvailable());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	ZkLockClusterEndpoint zkLockClusterEndpoint(CuratorFramework client, ZkLockProperties properties,
			ObjectProvider<ZkLockTemplate> template, ApplicationEventPublisher publisher,
			ObjectProvider<ForcedReleaseListener> listener, ObjectProvider<ListingClients> listings) {
		String lockBasePath = properties.getLock().getBasePath();
		ZkLockTemplate locks = template.getIfUnique();
		ListingClients listing = listings.getIfAvailable();
		ClusterRelease release = (locks != null)
				? new ClusterRelease(client, lockBasePath, locks.getParticipantId(), RELEASE_OWNER_WAIT, listing) : null;
		return new ZkLockClusterEndpoint(new ClusterView(client, lockBasePath, properties.getLeader().getBasePath(),
				listing),
				release, publisher, listener.getIfAvailable(() -> ForcedReleaseListener.NONE));
	}

}
