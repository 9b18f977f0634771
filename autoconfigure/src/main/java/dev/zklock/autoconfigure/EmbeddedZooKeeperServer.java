package dev.zklock.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.zookeeper.metrics.impl.DefaultMetricsProvider;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.FileSystemUtils;

/**
 * A real, standalone ZooKeeper server running inside the application, listening on the
 * loopback address. Meant for development, demos and tests: it is a single server, so it
 * offers none of an ensemble's fault tolerance.
 *
 * @since 0.1.0
 */
public class EmbeddedZooKeeperServer implements DisposableBean {

	private static final int TICK_TIME_MS = 500;

	private static final int MIN_SESSION_TIMEOUT_MS = 2 * TICK_TIME_MS;

	private static final int MAX_SESSION_TIMEOUT_MS = 120_000;

	private static final long START_TIMEOUT_SECONDS = 30;

	private final File dataDir;

	private final boolean temporaryDataDir;

	private final ServerThread server;

	/**
	 * Start a server.
	 * @param port the client port; 0 picks a free port
	 * @param dataDir the data folder; {@code null} for a temporary folder removed by
	 * {@link #destroy()}
	 */
	public EmbeddedZooKeeperServer(int port, @Nullable File dataDir) {
		try {
			this.temporaryDataDir = (dataDir == null);
			this.dataDir = (dataDir != null) ? dataDir : Files.createTempDirectory("zklock-embedded-zk").toFile();
			this.dataDir.mkdirs();
			this.server = new ServerThread(new EmbeddedServerConfig(port, this.dataDir));
			this.server.startAndWait();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the embedded ZooKeeper server", ex);
		}
	}

	/**
	 * Return the port the server listens on.
	 * @return the client port
	 */
	public int getPort() {
		return this.server.port();
	}

	/**
	 * Return the connect string of this server.
	 * @return {@code 127.0.0.1:<port>}
	 */
	public String getConnectString() {
		return InetAddress.getLoopbackAddress().getHostAddress() + ":" + getPort();
	}

	/**
	 * Return the data folder of this server.
	 * @return the data folder
	 */
	public File getDataDir() {
		return this.dataDir;
	}

	@Override
	public void destroy() {
		this.server.stop();
		if (this.temporaryDataDir) {
			FileSystemUtils.deleteRecursively(this.dataDir);
		}
	}

	private static final class EmbeddedServerConfig extends ServerConfig {

		EmbeddedServerConfig(int port, File dataDir) {
			this.clientPortAddress = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
			this.dataDir = dataDir;
			this.dataLogDir = dataDir;
			this.tickTime = TICK_TIME_MS;
			this.minSessionTimeout = MIN_SESSION_TIMEOUT_MS;
			this.maxSessionTimeout = MAX_SESSION_TIMEOUT_MS;
			this.maxClientCnxns = 0;
			this.metricsProviderClassName = DefaultMetricsProvider.class.getName();
			this.metricsProviderConfiguration = new Properties();
		}

	}

	private static final class ServerThread extends ZooKeeperServerMain {

		private final ServerConfig config;

		private final CountDownLatch started = new CountDownLatch(1);

		private final AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();

		private final Thread thread;

		ServerThread(ServerConfig config) {
			this.config = config;
			this.thread = new Thread(this::run, "zklock-embedded-zookeeper");
			this.thread.setDaemon(true);
		}

		void startAndWait() throws IOException {
			String adminServer = System.getProperty("zookeeper.admin.enableServer");
			System.setProperty("zookeeper.admin.enableServer", "false");
			try {
				this.thread.start();
				if (!this.started.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS) && this.failure.get() == null) {
					stop();
					throw new IOException("The embedded ZooKeeper server did not start within " + START_TIMEOUT_SECONDS + "s");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				stop();
				throw new IOException("Interrupted while starting the embedded ZooKeeper server", ex);
			}
			finally {
				if (adminServer != null) {
					System.setProperty("zookeeper.admin.enableServer", adminServer);
				}
				else {
					System.clearProperty("zookeeper.admin.enableServer");
				}
			}
			Throwable failure = this.failure.get();
			if (failure != null) {
				throw new IOException("The embedded ZooKeeper server failed to start: " + failure.getMessage(), failure);
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

		int port() {
			return getClientPort();
		}

		void stop() {
			shutdown();
			try {
				this.thread.join(TimeUnit.SECONDS.toMillis(START_TIMEOUT_SECONDS));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
