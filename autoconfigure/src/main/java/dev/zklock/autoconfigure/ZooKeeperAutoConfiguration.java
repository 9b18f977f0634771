package dev.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of the ZooKeeper client that zklock uses:
 * a started {@link CuratorFramework} built from the {@code zklock.*} properties, unless the
 * application defines its own, and optionally an embedded ZooKeeper server.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZkLockProperties.class)
public final class ZooKeeperAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ZooKeeperConnectionDetails.class)
	@ConditionalOnBooleanProperty(name = "zklock.embedded.enabled", havingValue = false, matchIfMissing = true)
	PropertiesZooKeeperConnectionDetails zooKeeperConnectionDetails(ZkLockProperties properties) {
		return new PropertiesZooKeeperConnectionDetails(properties);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	CuratorFramework zklockCuratorFramework(ZkLockProperties properties, ZooKeeperConnectionDetails connectionDetails,
			ObjectProvider<CuratorFrameworkBuilderCustomizer> customizers) {
		return new CuratorClientFactory(properties, connectionDetails, customizers.orderedStream().toList())
			.createStarted();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("zklock.embedded.enabled")
	static class EmbeddedServerConfiguration {

		@Bean
		@ConditionalOnMissingBean
		EmbeddedZooKeeperServer embeddedZooKeeperServer(ZkLockProperties properties) {
			ZkLockProperties.Embedded embedded = properties.getEmbedded();
			return new EmbeddedZooKeeperServer(embedded.getPort(), embedded.getDataDir());
		}

		@Bean
		@ConditionalOnMissingBean(ZooKeeperConnectionDetails.class)
		ZooKeeperConnectionDetails embeddedZooKeeperConnectionDetails(EmbeddedZooKeeperServer server) {
			return server::getConnectString;
		}

	}

}
