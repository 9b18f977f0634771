package dev.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import dev.zklock.cluster.ListingClients;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

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

	@Bean
	static UnknownPropertiesWarning zklockUnknownPropertiesWarning(Environment environment) {
		return new UnknownPropertiesWarning(environment);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	CuratorFramework zklockCuratorFramework(ZkLockProperties properties, ZooKeeperConnectionDetails connectionDetails,
			ObjectProvider<CuratorFrameworkBuilderCustomizer> customizers, ObjectProvider<ZooKeeperClientTls> tls,
			ObjectProvider<ZooKeeperClientSasl> sasl) {
		ZkLockPropertyChecks.checkClient(properties);
		return new CuratorClientFactory(properties, connectionDetails, customizers.orderedStream().toList(),
				tls.getIfAvailable(), sasl.getIfAvailable())
			.createStarted();
	}

	/**
	 * The listing sessions of the cluster view, made like the auto-configured client (same
	 * ensemble, namespace, credentials, TLS and customizers) with a reply limit of their own.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(CuratorFramework.class)
	static class ListingClientsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ListingClients zklockListingClients(ZkLockProperties properties, ZooKeeperConnectionDetails connectionDetails,
				ObjectProvider<CuratorFrameworkBuilderCustomizer> customizers, ObjectProvider<ZooKeeperClientTls> tls,
				ObjectProvider<ZooKeeperClientSasl> sasl) {
			return new CuratorClientFactory(properties, connectionDetails, customizers.orderedStream().toList(),
					tls.getIfAvailable(), sasl.getIfAvailable())::createListing;
		}

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

	/**
	 * SASL login of the auto-configured client, created before it and destroyed after it: the
	 * in-memory login section is removed once the client is closed.
	 */
	@Configuration(proxyBeanMethods = false)
	@Conditional(OnSaslPropertyCondition.class)
	@ConditionalOnMissingBean(CuratorFramework.class)
	static class ClientSaslConfiguration {

		@Bean
		ZooKeeperClientSasl zklockClientSasl(ZkLockProperties properties) {
			return ZooKeeperClientSasl.of(properties.getSasl());
		}

	}

	/**
	 * Matches when any {@code zklock.sasl.*} login property is set, so that one set without the
	 * others is reported rather than ignored.
	 */
	static class OnSaslPropertyCondition extends AnyNestedCondition {

		OnSaslPropertyCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnProperty("zklock.sasl.username")
		static class Username {

		}

		@ConditionalOnProperty("zklock.sasl.password")
		static class Password {

		}

		@ConditionalOnProperty("zklock.sasl.login-context")
		static class LoginContext {

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("zklock.embedded.enabled")
	static class EmbeddedServerConfiguration {

		private static final String CONNECT_STRING = "zklock.connect-string";

		private static final String ZOOKEEPER_LOGGER = "org.apache.zookeeper";

		private static final String SERVER_LOGGER = "org.apache.zookeeper.server";

		@Bean
		@ConditionalOnMissingBean
		EmbeddedZooKeeperServer embeddedZooKeeperServer(ZkLockProperties properties,
				ObjectProvider<SslBundles> sslBundles, Environment environment, ObjectProvider<LoggingSystem> logging) {
			String connectString = environment.getProperty(CONNECT_STRING);
			if (connectString != null) {
				throw new InvalidZkLockPropertyException(CONNECT_STRING, connectString,
						"it is set together with 'zklock.embedded.enabled=true', which starts an embedded server and "
								+ "connects to it instead",
						"Remove 'zklock.connect-string' to use the embedded server, or set "
								+ "'zklock.embedded.enabled=false' to connect to the servers it names.");
			}
			quietServerLogs(environment, logging.getIfAvailable());
			ZkLockProperties.Embedded embedded = properties.getEmbedded();
			String bundleName = embedded.getSsl().getBundle();
			if (!StringUtils.hasText(bundleName)) {
				return new EmbeddedZooKeeperServer(embedded.getPort(), embedded.getDataDir());
			}
			SslBundle bundle = embeddedServerBundle(sslBundles.getIfAvailable(), bundleName);
			EmbeddedServerTls tls = EmbeddedServerTls.of(bundleName, bundle);
			EmbeddedZooKeeperServer server = new EmbeddedZooKeeperServer(embedded.getPort(), embedded.getDataDir(),
					tls);
			sslBundles.getObject().addBundleUpdateHandler(bundleName, tls::reloaded);
			return server;
		}

		/**
		 * The server's banner and its INFO lines (about 70 at startup) at WARN, unless the
		 * application sets a level for ZooKeeper's loggers itself.
		 */
		private static void quietServerLogs(Environment environment, @Nullable LoggingSystem logging) {
			if (logging != null && !environment.containsProperty("logging.level." + ZOOKEEPER_LOGGER)
					&& !environment.containsProperty("logging.level." + SERVER_LOGGER)) {
				logging.setLogLevel(SERVER_LOGGER, LogLevel.WARN);
			}
		}

		private static SslBundle embeddedServerBundle(@Nullable SslBundles bundles, String name) {
			if (bundles != null) {
				try {
					return bundles.getBundle(name);
				}
				catch (NoSuchSslBundleException ex) {
					throw unknownBundle(name, " (known bundles: " + bundles.getBundleNames() + ").", ex);
				}
			}
			throw unknownBundle(name, " (no SSL bundles are defined).", null);
		}

		private static ZooKeeperSecurityException unknownBundle(String name, String known,
				@Nullable Throwable cause) {
			return new ZooKeeperSecurityException(
					"zklock.embedded.ssl.bundle names SSL bundle '" + name + "', which does not exist" + known,
					"Set 'zklock.embedded.ssl.bundle' to one of the known bundles, or define the bundle as "
							+ "spring.ssl.bundle.jks." + name + ".* or spring.ssl.bundle.pem." + name + ".*.",
					cause);
		}

		@Bean
		@ConditionalOnMissingBean(ZooKeeperConnectionDetails.class)
		ZooKeeperConnectionDetails embeddedZooKeeperConnectionDetails(EmbeddedZooKeeperServer server) {
			return server::getConnectString;
		}

	}

}
