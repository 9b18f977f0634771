package dev.zklock.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.zookeeper.metrics.impl.DefaultMetricsProvider;
import org.apache.zookeeper.server.NettyServerCnxnFactory;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.apache.zookeeper.server.auth.X509AuthenticationProvider;
import org.jspecify.annotations.Nullable;

import dev.zklock.test.ZooKeeperEnsemble;
import dev.zklock.test.ZooKeeperServerJars;
import dev.zklock.test.ZooKeeperTestServer;

/**
 * A real ZooKeeper server in the test JVM whose only client port is TLS, on a free loopback
 * port. The ZooKeeper server takes its TLS settings from system properties only: they are set
 * while the server runs and put back as they were by {@link #close()}, so only one such server
 * may run at a time. zklock's client sets every TLS setting of its own, so these properties do
 * not reach it. The server's authentication providers (x509 among them) are registered anew for
 * it and again after it.
 * <p>
 * In the build's runs against each server line ({@link ZooKeeperTestServer#serverVersion()}), it
 * is instead a server of that line's own jars in a process of its own, with the same settings
 * and a plaintext port besides (which its start and stop use; the tests use the TLS port only).
 */
final class SecureZooKeeperServer implements AutoCloseable {

	private static final long START_SECONDS = 30;

	private final Map<String, String> previousProperties = new LinkedHashMap<>();

	private final @Nullable ServerThread server;

	private final @Nullable ZooKeeperEnsemble ensemble;

	private SecureZooKeeperServer(ZooKeeperEnsemble ensemble) {
		this.server = null;
		this.ensemble = ensemble;
	}

	private SecureZooKeeperServer(Path dataDir, Map<String, String> properties) throws IOException {
		this.ensemble = null;
		properties.forEach((key, value) -> {
			this.previousProperties.put(key, System.getProperty(key));
			System.setProperty(key, value);
		});
		ProviderRegistry.reset();
		this.server = new ServerThread(dataDir.toFile());
		try {
			this.server.startAndWait();
		}
		catch (IOException | RuntimeException ex) {
			close();
			throw ex;
		}
	}

	/**
	 * Start a server that asks clients for a certificate and accepts those its trust store
	 * trusts.
	 * @param dataDir an empty data folder
	 * @param keyStore the server's PKCS12 key store
	 * @param trustStore the PKCS12 trust store for client certificates
	 * @param password the password of both stores
	 * @param clientAuth 'need', 'want' or 'none'
	 * @return the started server
	 * @throws IOException if the server did not start
	 */
	static SecureZooKeeperServer start(Path dataDir, Path keyStore, Path trustStore, String password, String clientAuth)
			throws IOException {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("zookeeper.serverCnxnFactory", NettyServerCnxnFactory.class.getName());
		properties.put("zookeeper.admin.enableServer", "false");
		properties.put("zookeeper.ssl.keyStore.location", keyStore.toString());
		properties.put("zookeeper.ssl.keyStore.password", password);
		properties.put("zookeeper.ssl.keyStore.type", "PKCS12");
		properties.put("zookeeper.ssl.trustStore.location", trustStore.toString());
		properties.put("zookeeper.ssl.trustStore.password", password);
		properties.put("zookeeper.ssl.trustStore.type", "PKCS12");
		properties.put("zookeeper.ssl.clientAuth", clientAuth);
		properties.put("zookeeper.authProvider.x509", X509AuthenticationProvider.class.getName());
		String version = ZooKeeperTestServer.serverVersion();
		if (version != null) {
			return new SecureZooKeeperServer(ZooKeeperEnsemble.builder()
				.servers(1)
				.tickTime(200)
				.secureClientPort()
				.serverJars(ZooKeeperServerJars.folder(version))
				.jvmArgs(properties.entrySet().stream().map((entry) -> "-D" + entry.getKey() + "=" + entry.getValue())
					.toArray(String[]::new))
				.start());
		}
		return new SecureZooKeeperServer(dataDir, properties);
	}

	/**
	 * Return the connect string of the TLS port.
	 * @return {@code 127.0.0.1:<port>}
	 */
	String getConnectString() {
		if (this.ensemble != null) {
			return this.ensemble.secureConnectString(1);
		}
		return InetAddress.getLoopbackAddress().getHostAddress() + ":" + this.server.getSecureClientPort();
	}

	@Override
	public void close() {
		if (this.ensemble != null) {
			this.ensemble.close();
			return;
		}
		try {
			this.server.stop();
		}
		finally {
			this.previousProperties.forEach((key, value) -> {
				if (value != null) {
					System.setProperty(key, value);
				}
				else {
					System.clearProperty(key);
				}
			});
			ProviderRegistry.reset();
		}
	}

	private static final class ServerThread extends ZooKeeperServerMain {

		private final ServerConfig config;

		private final CountDownLatch started = new CountDownLatch(1);

		private final AtomicReference<Throwable> failure = new AtomicReference<>();

		private final Thread thread;

		ServerThread(File dataDir) {
			this.config = new SecureOnlyConfig(dataDir);
			this.thread = new Thread(this::run, "secure-zookeeper-test-server");
			this.thread.setDaemon(true);
		}

		void startAndWait() throws IOException {
			this.thread.start();
			try {
				if (!this.started.await(START_SECONDS, TimeUnit.SECONDS)) {
					throw new IOException("The TLS ZooKeeper server did not start within " + START_SECONDS + "s");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException("Interrupted while starting the TLS ZooKeeper server", ex);
			}
			if (this.failure.get() != null) {
				throw new IOException("The TLS ZooKeeper server failed to start", this.failure.get());
			}
		}

		private void run() {
			try {
				runFromConfig(this.config);
			}
			catch (Throwable ex) {
				this.failure.set(ex);
			}
			finally {
				this.started.countDown();
			}
		}

		@Override
		protected void serverStarted() {
			this.started.countDown();
		}

		void stop() {
			shutdown();
			try {
				this.thread.join(TimeUnit.SECONDS.toMillis(START_SECONDS));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	private static final class SecureOnlyConfig extends ServerConfig {

		SecureOnlyConfig(File dataDir) {
			this.secureClientPortAddress = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
			this.dataDir = dataDir;
			this.dataLogDir = dataDir;
			this.tickTime = 200;
			this.minSessionTimeout = 400;
			this.maxSessionTimeout = 60_000;
			this.maxClientCnxns = 0;
			this.metricsProviderClassName = DefaultMetricsProvider.class.getName();
			this.metricsProviderConfiguration = new Properties();
		}

	}

}
