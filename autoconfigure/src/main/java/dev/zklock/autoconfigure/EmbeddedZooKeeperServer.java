package dev.zklock.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.zookeeper.metrics.impl.DefaultMetricsProvider;
import org.apache.zookeeper.server.NettyServerCnxnFactory;
import org.apache.zookeeper.server.ServerCnxnFactory;
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

	/**
	 * Prefix of the temporary data folders, followed by the id of the process that made them.
	 */
	static final String TEMPORARY_PREFIX = "zklock-embedded-zk-";

	private final File dataDir;

	private final boolean temporaryDataDir;

	private final ServerThread server;

	private final @Nullable EmbeddedServerTls tls;

	/**
	 * Start a server.
	 * @param port the client port; 0 picks a free port
	 * @param dataDir the data folder; {@code null} for a temporary folder removed by
	 * {@link #destroy()}
	 */
	public EmbeddedZooKeeperServer(int port, @Nullable File dataDir) {
		this(port, dataDir, null);
	}

	/**
	 * Start a server that speaks TLS only, when given its TLS settings. The ZooKeeper server
	 * reads them from JVM-wide system properties, set while it runs.
	 * @param port the client port; 0 picks a free port
	 * @param dataDir the data folder; {@code null} for a temporary folder removed by
	 * {@link #destroy()}
	 * @param tls the server's TLS settings, or {@code null} for plaintext; closed with the
	 * server
	 */
	EmbeddedZooKeeperServer(int port, @Nullable File dataDir, @Nullable EmbeddedServerTls tls) {
		this.tls = tls;
		try {
			this.temporaryDataDir = (dataDir == null);
			this.dataDir = (dataDir != null) ? dataDir : temporaryDataDir();
			this.dataDir.mkdirs();
			if (tls != null) {
				tls.apply();
			}
			this.server = new ServerThread(new EmbeddedServerConfig(port, this.dataDir, tls != null));
			this.server.startAndWait(tls != null);
		}
		catch (IOException | RuntimeException ex) {
			if (tls != null) {
				tls.close();
			}
			if (ex instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new UncheckedIOException("Could not start the embedded ZooKeeper server", (IOException) ex);
		}
	}

	/**
	 * Return the port the server listens on.
	 * @return the client port
	 */
	public int getPort() {
		return (this.tls != null) ? this.server.getSecureClientPort() : this.server.port();
	}

	/**
	 * Return whether the server speaks TLS only.
	 * @return whether clients must connect over TLS
	 */
	public boolean isSecure() {
		return this.tls != null;
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
		if (this.tls != null) {
			this.tls.close();
		}
		if (this.temporaryDataDir) {
			FileSystemUtils.deleteRecursively(this.dataDir);
		}
	}

	/**
	 * Make a temporary data folder named by this process's id, after removing those left by
	 * processes that are gone (killed before they could remove theirs).
	 */
	private static File temporaryDataDir() throws IOException {
		Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
		try (DirectoryStream<Path> folders = Files.newDirectoryStream(tmp, TEMPORARY_PREFIX + "*")) {
			for (Path folder : folders) {
				if (leftByAnEndedProcess(folder.getFileName().toString())) {
					try {
						FileSystemUtils.deleteRecursively(folder);
					}
					catch (IOException ex) {
						// another process's folder that this one may not remove: left as it is
					}
				}
			}
		}
		return Files.createTempDirectory(tmp, TEMPORARY_PREFIX + ProcessHandle.current().pid() + "-").toFile();
	}

	static boolean leftByAnEndedProcess(String folderName) {
		String rest = folderName.substring(TEMPORARY_PREFIX.length());
		int dash = rest.indexOf('-');
		if (dash <= 0) {
			return false;
		}
		try {
			long pid = Long.parseLong(rest.substring(0, dash));
			return ProcessHandle.of(pid).map((process) -> !process.isAlive()).orElse(true);
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	private static final class EmbeddedServerConfig extends ServerConfig {

		EmbeddedServerConfig(int port, File dataDir, boolean secure) {
			InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
			if (secure) {
				this.secureClientPortAddress = address;
			}
			else {
				this.clientPortAddress = address;
			}
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

		void startAndWait(boolean secure) throws IOException {
			Map<String, @Nullable String> previous = new LinkedHashMap<>();
			setTemporarily(previous, "zookeeper.admin.enableServer", "false");
			if (secure) {
				// the only connection factory that speaks TLS; read once, when the server starts
				setTemporarily(previous, ServerCnxnFactory.ZOOKEEPER_SERVER_CNXN_FACTORY,
						NettyServerCnxnFactory.class.getName());
			}
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
				previous.forEach((name, value) -> {
					if (value != null) {
						System.setProperty(name, value);
					}
					else {
						System.clearProperty(name);
					}
				});
			}
			Throwable failure = this.failure.get();
			if (failure != null) {
				throw new IOException("The embedded ZooKeeper server failed to start: " + failure.getMessage(), failure);
			}
		}

		private static void setTemporarily(Map<String, @Nullable String> previous, String name, String value) {
			previous.put(name, System.getProperty(name));
			System.setProperty(name, value);
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
