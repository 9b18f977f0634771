package dev.zklock.test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.jspecify.annotations.Nullable;

/**
 * A real ZooKeeper server running in the test JVM on a free loopback port. It can be stopped and
 * restarted on the same port with its data kept, to test what clients do while ZooKeeper is
 * away.
 * <p>
 * When the system property {@value #SERVER_VERSION_PROPERTY} names a ZooKeeper version (such as
 * {@code 3.6.4}, whose jars {@link ZooKeeperServerJars} finds), it is instead an ensemble of three
 * servers of that version, each a separate process on loopback ({@link ZooKeeperEnsemble}): the
 * build runs the tests of what depends on the server's version that way, once per server line.
 *
 * @see EmbeddedZooKeeper
 */
public final class ZooKeeperTestServer implements AutoCloseable {

	/**
	 * The system property that names the ZooKeeper version of an ensemble to use instead of the
	 * in-process server.
	 */
	public static final String SERVER_VERSION_PROPERTY = "zklock.test.server-version";

	private static final Duration ENSEMBLE_START_TIMEOUT = Duration.ofSeconds(60);

	private final @Nullable TestingServer server;

	private final @Nullable ZooKeeperEnsemble ensemble;

	private final int tickTime;

	private final @Nullable Path folder;

	private ZooKeeperTestServer(TestingServer server, int tickTime, Path folder) {
		this.server = server;
		this.ensemble = null;
		this.tickTime = tickTime;
		this.folder = folder;
	}

	private ZooKeeperTestServer(ZooKeeperEnsemble ensemble, int tickTime) {
		this.server = null;
		this.ensemble = ensemble;
		this.tickTime = tickTime;
		this.folder = null;
	}

	/**
	 * Return the ZooKeeper version of the ensemble that {@link #start(int)} starts in place of the
	 * in-process server, if the {@value #SERVER_VERSION_PROPERTY} system property names one.
	 * @return the version, or {@code null} for the in-process server
	 */
	public static @Nullable String serverVersion() {
		String version = System.getProperty(SERVER_VERSION_PROPERTY);
		return (version == null || version.isBlank()) ? null : version.trim();
	}

	/**
	 * Start a server.
	 * @param tickTime the server's tick in milliseconds; sessions may last from two to a
	 * thousand ticks
	 * @return the started server
	 */
	public static ZooKeeperTestServer start(int tickTime) {
		String version = serverVersion();
		if (version != null) {
			return new ZooKeeperTestServer(ZooKeeperEnsemble.builder()
				.servers(3)
				.tickTime(tickTime)
				.serverJars(ZooKeeperServerJars.folder(version))
				.jvmArgs("-Dznode.container.maxPerMinute=1000000")
				.startTimeout(ENSEMBLE_START_TIMEOUT)
				.start(), tickTime);
		}
		String loopback = InetAddress.getLoopbackAddress().getHostAddress();
		Map<String, Object> properties = Map.of("clientPortAddress", loopback, "minSessionTimeout", String.valueOf(2 * tickTime),
				"maxSessionTimeout", String.valueOf(1000 * tickTime), "4lw.commands.whitelist", "*", "admin.enableServer", "false");
		// ZooKeeper writes a configuration file beside the data folder at every start: both go in
		// a folder of their own, deleted on close.
		Path folder = ScratchFolder.newFolder("zookeeper-");
		InstanceSpec spec = new InstanceSpec(folder.resolve("data").toFile(), -1, -1, -1, true, -1, tickTime, 0,
				properties, loopback);
		try {
			return new ZooKeeperTestServer(new TestingServer(spec, true), tickTime, folder);
		}
		catch (Exception ex) {
			ScratchFolder.deleteQuietly(folder);
			throw new IllegalStateException("Could not start a ZooKeeper test server", ex);
		}
	}

	/**
	 * Return the connect string of this server.
	 * @return {@code 127.0.0.1:<port>}
	 */
	public String getConnectString() {
		if (this.ensemble != null) {
			return this.ensemble.connectString();
		}
		return InetAddress.getLoopbackAddress().getHostAddress() + ":" + testingServer().getPort();
	}

	/**
	 * Return the client port of this server (of the first server of an ensemble).
	 * @return the port
	 */
	public int getPort() {
		return (this.ensemble != null) ? this.ensemble.clientPort(1) : testingServer().getPort();
	}

	/**
	 * Return the server's tick in milliseconds.
	 * @return the tick time
	 */
	public int getTickTime() {
		return this.tickTime;
	}

	/**
	 * Return the data folder of this server.
	 * @return the data folder
	 */
	public File getDataDirectory() {
		return (this.ensemble != null) ? this.ensemble.dataRoot().toFile() : testingServer().getTempDirectory();
	}

	/**
	 * Stop the server, keeping its port and data for {@link #restart()}. Connected clients see
	 * their connection drop.
	 */
	public void stop() {
		if (this.ensemble != null) {
			for (int id = 1; id <= this.ensemble.size(); id++) {
				this.ensemble.stop(id);
			}
			return;
		}
		try {
			testingServer().stop();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Start the server again on the same port with the same data. Sessions that have not
	 * expired yet may be resumed by their clients.
	 */
	public void restart() {
		if (this.ensemble != null) {
			for (int id = 1; id <= this.ensemble.size(); id++) {
				this.ensemble.restart(id);
			}
			this.ensemble.awaitQuorum(ENSEMBLE_START_TIMEOUT);
			return;
		}
		try {
			testingServer().restart();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not restart the ZooKeeper test server", ex);
		}
	}

	/**
	 * Stop the server and delete its data and configuration.
	 */
	@Override
	public void close() {
		if (this.ensemble != null) {
			this.ensemble.close();
			return;
		}
		try {
			testingServer().close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			if (this.folder != null) {
				ScratchFolder.deleteQuietly(this.folder);
			}
		}
	}

	private TestingServer testingServer() {
		if (this.server == null) {
			throw new IllegalStateException("Not an in-process server");
		}
		return this.server;
	}

}
