package dev.zklock.lock;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.apache.zookeeper.server.DataNode;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A ZooKeeper server in this process, on loopback, whose data tree a test can reach: to set a
 * node's children counter ({@code cversion}, which names sequential children) just below its
 * end, as on a node that has had that many children. Its data lives under {@code target/}
 * and is removed when it stops.
 */
public final class SequenceEndServer implements AutoCloseable {

	private final Path directory;

	private final ZooKeeperServer server;

	private final ServerCnxnFactory factory;

	private SequenceEndServer(Path directory, ZooKeeperServer server, ServerCnxnFactory factory) {
		this.directory = directory;
		this.server = server;
		this.factory = factory;
	}

	public static SequenceEndServer start() throws Exception {
		Path directory = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "sequence-end-");
		File data = directory.toFile();
		ZooKeeperServer server = new ZooKeeperServer(data, data, 500);
		ServerCnxnFactory factory = ServerCnxnFactory
			.createFactory(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
		factory.startup(server);
		return new SequenceEndServer(directory, server, factory);
	}

	public String connectString() {
		return InetAddress.getLoopbackAddress().getHostAddress() + ":" + this.factory.getLocalPort();
	}

	/**
	 * Set the children counter of a node, as its data tree holds it.
	 */
	public void setCversion(String path, int cversion) {
		node(path).stat.setCversion(cversion);
	}

	public boolean exists(String path) {
		return this.server.getZKDatabase().getDataTree().getNode(path) != null;
	}

	public int cversion(String path) {
		return node(path).stat.getCversion();
	}

	private DataNode node(String path) {
		DataNode node = this.server.getZKDatabase().getDataTree().getNode(path);
		if (node == null) {
			throw new IllegalStateException("No node " + path);
		}
		return node;
	}

	@Override
	public void close() throws IOException {
		this.factory.shutdown();
		this.server.shutdown();
		try (Stream<Path> files = Files.walk(this.directory)) {
			files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
	}

}
