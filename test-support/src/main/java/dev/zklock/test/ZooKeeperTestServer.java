package dev.zklock.test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * A real ZooKeeper server running in the test JVM on a free loopback port. It can be stopped and
 * restarted on the same port with its data kept, to test what clients do while ZooKeeper is
 * away.
 *
 * @see EmbeddedZooKeeper
 */
public final class ZooKeeperTestServer implements AutoCloseable {

	private final TestingServer server;

	private final int tickTime;

	private final Path folder;

	private ZooKeeperTestServer(TestingServer server, int tickTime, Path folder) {
		this.server = server;
		this.tickTime = tickTime;
		this.folder = folder;
	}

	/**
	 * Start a server.
	 * @param tickTime the server's tick in milliseconds; sessions may last from two to a
	 * thousand ticks
	 * @return the started server
	 */
	public static ZooKeeperTestServer start(int tickTime) {
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
		return InetAddress.getLoopbackAddress().getHostAddress() + ":" + this.server.getPort();
	}

	/**
	 * Return the client port of this server.
	 * @return the port
	 */
	public int getPort() {
		return this.server.getPort();
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
		return this.server.getTempDirectory();
	}

	/**
	 * Stop the server, keeping its port and data for {@link #restart()}. Connected clients see
	 * their connection drop.
	 */
	public void stop() {
		try {
			this.server.stop();
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
		try {
			this.server.restart();
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
		try {
			this.server.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			ScratchFolder.deleteQuietly(this.folder);
		}
	}

}
