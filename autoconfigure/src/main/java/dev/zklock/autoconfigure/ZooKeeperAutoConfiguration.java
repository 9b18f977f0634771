package dev.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
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
@AutoConfiguration(after = SslAutoConfiguration.class)
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
			ObjectProvider<CuratorFrameworkBuilderCustomizer> customizers, ObjectProvider<ZooKeeperClientTls> tls) {
		return new CuratorClientFactory(properties, connectionDetails, customizers.orderedStream().toList(),
				tls.getIfAvailable())
			.createStarted();
	}

	/**
	 * TLS settings of the auto-configured client, created before it and destroyed after it:
	 * the private files holding the bundle's stores are removed once the client is closed.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty("zklock.ssl.bundle")
	@ConditionalOnMissingBean(CuratorFramework.class)
	static class ClientTlsConfiguration {

		@Bean
		ZooKeeperClientTls zklockClientTls(ZkLockProperties properties, SslBundles sslBundles) {
			return ZooKeeperClientTls.of(sslBundles, properties.getSsl());
		}

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
