package dev.zklock.benchmarks.library;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;

/**
 * Curator clients with the same settings for every library: zklock's defaults (session timeout
 * 30 seconds, connection timeout 10 seconds, exponential back-off from 100 ms to 5 s, 10
 * retries, no ensemble tracking).
 */
public final class CuratorClients {

	/**
	 * System property: a PKCS12 trust store; when set, clients connect over TLS and trust the
	 * certificates it holds (the setups with a TLS port).
	 */
	public static final String TLS_TRUST_STORE_PROPERTY = "zklock-benchmarks.tls-trust-store";

	/** System property: the password of that trust store. */
	public static final String TLS_PASSWORD_PROPERTY = "zklock-benchmarks.tls-password";

	/** The session timeout clients ask for unless told otherwise. */
	public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(10);

	private CuratorClients() {
	}

	/**
	 * Start a client with the default session timeout and wait until it is connected.
	 * @param connectString the ZooKeeper servers
	 * @return the started, connected client
	 */
	public static CuratorFramework connect(String connectString) {
		return connect(connectString, SESSION_TIMEOUT);
	}

	/**
	 * Start a client and wait until it is connected.
	 * @param connectString the ZooKeeper servers
	 * @param sessionTimeout the session timeout to ask for
	 * @return the started, connected client
	 * @throws IllegalStateException if it does not connect within the connection timeout
	 */
	public static CuratorFramework connect(String connectString, Duration sessionTimeout) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs((int) sessionTimeout.toMillis())
			.connectionTimeoutMs((int) CONNECTION_TIMEOUT.toMillis())
			.retryPolicy(new ExponentialBackoffRetry(100, 10, 5000))
			.ensembleTracker(false)
			.zkClientConfig(clientConfig())
			.build();
		client.start();
		try {
			if (!client.blockUntilConnected((int) CONNECTION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				client.close();
				throw new IllegalStateException("Could not connect to ZooKeeper at " + connectString + " within "
						+ CONNECTION_TIMEOUT.toSeconds() + " seconds");
			}
		}
		catch (InterruptedException ex) {
			client.close();
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while connecting to ZooKeeper", ex);
		}
		return client;
	}

	/**
	 * The client configuration every library's client gets: ZooKeeper's defaults, or TLS with the
	 * trust store of {@value #TLS_TRUST_STORE_PROPERTY}.
	 */
	private static ZKClientConfig clientConfig() {
		ZKClientConfig config = new ZKClientConfig();
		String trustStore = System.getProperty(TLS_TRUST_STORE_PROPERTY);
		if (trustStore != null && !trustStore.isBlank()) {
			try (ClientX509Util x509 = new ClientX509Util()) {
				config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
				config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
				config.setProperty(x509.getSslTruststoreLocationProperty(), trustStore);
				config.setProperty(x509.getSslTruststorePasswdProperty(), System.getProperty(TLS_PASSWORD_PROPERTY, ""));
				config.setProperty(x509.getSslTruststoreTypeProperty(), "PKCS12");
			}
		}
		return config;
	}

}
