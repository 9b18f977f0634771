package dev.zklock.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.util.StringUtils;

/**
 * Builds and starts the auto-configured {@link CuratorFramework}.
 */
class CuratorClientFactory {

	/**
	 * How long to wait for a connection before looking for a TLS reason why there is none.
	 */
	private static final Duration DIAGNOSIS_AFTER = Duration.ofSeconds(1);

	private final ZkLockProperties properties;

	private final ZooKeeperConnectionDetails connectionDetails;

	private final List<CuratorFrameworkBuilderCustomizer> customizers;

	private final @Nullable ZooKeeperClientTls tls;

	private final @Nullable ZooKeeperClientSasl sasl;

	CuratorClientFactory(ZkLockProperties properties, ZooKeeperConnectionDetails connectionDetails,
			List<CuratorFrameworkBuilderCustomizer> customizers, @Nullable ZooKeeperClientTls tls,
			@Nullable ZooKeeperClientSasl sasl) {
		this.properties = properties;
		this.connectionDetails = connectionDetails;
		this.customizers = customizers;
		this.tls = tls;
		this.sasl = sasl;
	}

	CuratorFramework createStarted() {
		String connectString = this.connectionDetails.getConnectString();
		ConnectStrings.validate(connectString);
		if (this.properties.isFailFast()) {
			ConnectStrings.validateResolvable(connectString);
		}
		CuratorFrameworkFactory.Builder builder = builder(connectString);
		this.customizers.forEach((customizer) -> customizer.customize(builder));
		if (this.sasl != null) {
			this.sasl.checkVisible();
		}
		CuratorFramework client = builder.build();
		client.start();
		if (this.properties.isFailFast()) {
			awaitConnection(client, connectString);
		}
		return client;
	}

	/**
	 * Return a client like {@link #createStarted()}'s, not started, for a listing session of the
	 * cluster view: a session of its own, replies of up to {@code replyLimit} bytes, and no retry
	 * of a lost connection.
	 */
	CuratorFramework createListing(int replyLimit) {
		ZKClientConfig config = clientConfig();
		config.setProperty(ZKConfig.JUTE_MAXBUFFER, String.valueOf(replyLimit));
		CuratorFrameworkFactory.Builder builder = builder(this.connectionDetails.getConnectString(), config);
		this.customizers.forEach((customizer) -> customizer.customize(builder));
		return builder.retryPolicy(new RetryNTimes(0, 0)).build();
	}

	private CuratorFrameworkFactory.Builder builder(String connectString) {
		return builder(connectString, clientConfig());
	}

	private CuratorFrameworkFactory.Builder builder(String connectString, ZKClientConfig clientConfig) {
		ZkLockProperties.Retry retry = this.properties.getRetry();
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.ensembleTracker(false)
			.retryPolicy(new BoundedExponentialBackoffRetry(millis(retry.getBaseSleep()), millis(retry.getMaxSleep()),
					retry.getMaxRetries()));
		PropertyMapper map = PropertyMapper.get();
		map.from(this.properties::getSessionTimeout).as(CuratorClientFactory::millis).to(builder::sessionTimeoutMs);
		map.from(this.properties::getConnectionTimeout).as(CuratorClientFactory::millis).to(builder::connectionTimeoutMs);
		map.from(this.properties::getNamespace)
			.whenHasText()
			.as((namespace) -> StringUtils.trimLeadingCharacter(namespace, '/'))
			.to(builder::namespace);
		builder.zkClientConfig(clientConfig);
		ZkLockProperties.Auth auth = this.properties.getAuth();
		map.from(auth::getScheme).whenHasText().to((scheme) -> {
			String credentials = (auth.getCredentials() != null) ? auth.getCredentials() : "";
			builder.authorization(scheme, credentials.getBytes(StandardCharsets.UTF_8));
		});
		boolean authenticated = StringUtils.hasText(auth.getScheme()) || this.sasl != null
				|| (this.tls != null && this.tls.hasClientCertificate());
		NodeAclProvider acl = NodeAclProvider.of(this.properties.getAcl(), authenticated);
		if (acl != null) {
			builder.aclProvider(acl);
		}
		return builder;
	}

	/**
	 * The client's own configuration: what it sets is for this client only, never for the JVM.
	 */
	private ZKClientConfig clientConfig() {
		ZKClientConfig config = new ZKClientConfig();
		if (this.tls != null) {
			this.tls.applyTo(config);
		}
		if (this.sasl != null) {
			this.sasl.applyTo(config);
		}
		return config;
	}

	private void awaitConnection(CuratorFramework client, String connectString) {
		Duration timeout = this.properties.getConnectionTimeout();
		long deadline = System.nanoTime() + timeout.toNanos();
		boolean connected = await(client, Math.min(timeout.toMillis(), DIAGNOSIS_AFTER.toMillis()));
		if (!connected) {
			Optional<ZooKeeperSecurityException> diagnosis = diagnose(client, connectString);
			if (diagnosis.isPresent()) {
				client.close();
				throw diagnosis.get();
			}
			connected = await(client, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
		}
		if (connected && this.sasl != null) {
			try {
				connected = this.sasl.verifyLogin(client, connectString,
						Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
			}
			catch (ZooKeeperSecurityException ex) {
				client.close();
				throw ex;
			}
		}
		if (!connected) {
			ZooKeeperSecurityException rejected = (this.sasl != null) ? this.sasl.diagnose(client, connectString)
					: null;
			client.close();
			if (rejected != null) {
				throw rejected;
			}
			throw new ZooKeeperUnavailableException(connectString, timeout);
		}
		try {
			ZooKeeperServerCheck.check(client, connectString, this.tls == null, timeout);
		}
		catch (ZooKeeperServerTooOldException ex) {
			client.close();
			throw ex;
		}
	}

	private Optional<ZooKeeperSecurityException> diagnose(CuratorFramework client, String connectString) {
		if (this.sasl != null) {
			ZooKeeperSecurityException rejected = this.sasl.diagnose(client, connectString);
			if (rejected != null) {
				return Optional.of(rejected);
			}
		}
		return TlsHandshakeDiagnosis.diagnose(connectString, this.tls);
	}

	private static boolean await(CuratorFramework client, long millis) {
		try {
			return client.blockUntilConnected((int) Math.max(0, millis), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private static int millis(Duration duration) {
		return (int) Math.min(Integer.MAX_VALUE, duration.toMillis());
	}

}
