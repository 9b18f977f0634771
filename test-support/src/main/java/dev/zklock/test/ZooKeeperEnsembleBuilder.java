package dev.zklock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Describes a {@link ZooKeeperEnsemble} to start: number of servers, tick time, data root and
 * JVM options of the server processes.
 */
public final class ZooKeeperEnsembleBuilder {

	private static final String LOGBACK_CONFIGURATION = "dev/zklock/test/zookeeper-logback.xml";

	private int servers = 3;

	private int tickTime = 500;

	private int initLimit;

	private int syncLimit;

	private @Nullable Path dataRoot;

	private final List<String> jvmArgs = new ArrayList<>();

	private Duration containerCheckInterval = Duration.ofMillis(500);

	private Duration startTimeout = Duration.ofSeconds(60);

	private boolean secureClientPort;

	private @Nullable IsolatedNetwork network;

	private @Nullable String serverClasspath;

	ZooKeeperEnsembleBuilder() {
	}

	/**
	 * Set the number of servers; 1 runs a standalone server. Default 3.
	 * @param servers the number of servers
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder servers(int servers) {
		if (servers < 1) {
			throw new IllegalArgumentException("An ensemble needs at least one server, not " + servers);
		}
		this.servers = servers;
		return this;
	}

	/**
	 * Set the servers' tick in milliseconds. Sessions may last from two ticks to the larger of a
	 * thousand ticks and a minute. Default 500.
	 * @param tickTime the tick time
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder tickTime(int tickTime) {
		if (tickTime < 1) {
			throw new IllegalArgumentException("The tick time must be positive, not " + tickTime);
		}
		this.tickTime = tickTime;
		return this;
	}

	/**
	 * Set the ticks a follower may take to connect and sync to a leader; by default as many as
	 * make 10 seconds, at least 10.
	 * @param ticks the init limit
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder initLimit(int ticks) {
		this.initLimit = ticks;
		return this;
	}

	/**
	 * Set the ticks a follower may lag behind or be silent before the leader drops it, and a
	 * follower waits for a silent leader; by default as many as make 2 seconds, at least 5.
	 * @param ticks the sync limit
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder syncLimit(int ticks) {
		this.syncLimit = ticks;
		return this;
	}

	/**
	 * Keep configuration, data and logs in the given folder, which {@link ZooKeeperEnsemble#close()}
	 * does not delete; by default a new folder in {@code target/zklock-test} that it deletes.
	 * @param dataRoot the folder
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder dataRoot(Path dataRoot) {
		this.dataRoot = dataRoot;
		return this;
	}

	/**
	 * Add JVM options for the server processes, after the defaults ({@code -Xmx256m
	 * -XX:+UseSerialGC -Dzookeeper.forceSync=no}, among others), which they can override.
	 * @param jvmArgs the options
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder jvmArgs(String... jvmArgs) {
		this.jvmArgs.addAll(Arrays.asList(jvmArgs));
		return this;
	}

	/**
	 * Set how often the servers delete empty container nodes. Default 500 milliseconds.
	 * @param interval the interval
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder containerCheckInterval(Duration interval) {
		this.containerCheckInterval = interval;
		return this;
	}

	/**
	 * Give every server a TLS client port besides its plaintext one, on loopback. The servers'
	 * TLS settings (key and trust stores, the Netty connection factory) are system properties of
	 * ZooKeeper's, given with {@link #jvmArgs(String...)}. Default: no TLS port.
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder secureClientPort() {
		this.secureClientPort = true;
		return this;
	}

	/**
	 * Run each server in its host of an isolated network (server {@code n} on host {@code n}),
	 * where partitions can cut servers off from each other, instead of on loopback. The network
	 * must have a host per server; the caller closes it after the ensemble.
	 * @param network the network
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder network(IsolatedNetwork network) {
		this.network = network;
		return this;
	}

	/**
	 * Run the servers from the jars in the given folder (a ZooKeeper version's own jars and its
	 * dependencies, see {@link ZooKeeperServerJars}) instead of this JVM's class path, which holds
	 * the ZooKeeper version the starter brings. Default: this JVM's class path.
	 * @param folder the folder of jars
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder serverJars(Path folder) {
		this.serverClasspath = ZooKeeperServerJars.classpath(folder);
		return this;
	}

	/**
	 * Set how long {@link #start()} waits for every server to serve. Default 60 seconds.
	 * @param timeout the timeout
	 * @return this builder
	 */
	public ZooKeeperEnsembleBuilder startTimeout(Duration timeout) {
		this.startTimeout = timeout;
		return this;
	}

	/**
	 * Start the servers and wait until every one of them serves clients.
	 * @return the running ensemble
	 * @throws IllegalStateException if a server fails or the start timeout passes; no process is
	 * left running then
	 */
	public ZooKeeperEnsemble start() {
		if (this.network != null && this.network.hosts() < this.servers) {
			throw new IllegalArgumentException("The network has " + this.network.hosts() + " hosts for "
					+ this.servers + " servers");
		}
		try {
			boolean temporary = this.dataRoot == null;
			Path root = temporary ? ScratchFolder.newFolder("zklock-ensemble-") : this.dataRoot;
			int[] ports = freePorts(4 * this.servers);
			List<EnsembleServer> members = new ArrayList<>();
			for (int id = 1; id <= this.servers; id++) {
				Path folder = Files.createDirectories(root.resolve("server-" + id));
				Path data = Files.createDirectories(folder.resolve("data"));
				Files.writeString(data.resolve("myid"), id + "\n", StandardCharsets.US_ASCII);
				Path config = Files.writeString(folder.resolve("zoo.cfg"), config(id, data, ports),
						StandardCharsets.UTF_8);
				members.add(new EnsembleServer(id, host(id), clientPort(id, ports), secureClientPort(id, ports), config,
						folder.resolve("zookeeper.log"), serverJvmArgs(),
						(this.network != null) ? this.network.launcher(id) : List.of(), this.serverClasspath));
			}
			ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble(members, root, temporary);
			ensemble.start(this.startTimeout);
			return ensemble;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not prepare the ZooKeeper ensemble", ex);
		}
	}

	private String config(int id, Path data, int[] ports) {
		StringBuilder config = new StringBuilder();
		config.append("tickTime=").append(this.tickTime).append('\n');
		config.append("initLimit=").append(ticks(this.initLimit, 10, 10_000)).append('\n');
		config.append("syncLimit=").append(ticks(this.syncLimit, 5, 2_000)).append('\n');
		config.append("dataDir=").append(data.toAbsolutePath().toString().replace('\\', '/')).append('\n');
		config.append("clientPort=").append(clientPort(id, ports)).append('\n');
		config.append("clientPortAddress=").append(host(id)).append('\n');
		if (this.secureClientPort) {
			config.append("secureClientPort=").append(secureClientPort(id, ports)).append('\n');
			config.append("secureClientPortAddress=").append(host(id)).append('\n');
		}
		config.append("minSessionTimeout=").append(2 * this.tickTime).append('\n');
		config.append("maxSessionTimeout=").append(Math.max(1000 * this.tickTime, 60_000)).append('\n');
		config.append("4lw.commands.whitelist=*\n");
		config.append("admin.enableServer=false\n");
		if (this.servers > 1) {
			config.append("standaloneEnabled=false\n");
			config.append("reconfigEnabled=false\n");
			for (int server = 1; server <= this.servers; server++) {
				config.append("server.").append(server).append('=').append(host(server));
				config.append(':').append(ports[3 * (server - 1) + 1]).append(':').append(ports[3 * (server - 1) + 2]);
				config.append('\n');
			}
		}
		return config.toString();
	}

	private int ticks(int configured, int minimum, int millis) {
		return (configured > 0) ? configured : Math.max(minimum, (millis + this.tickTime - 1) / this.tickTime);
	}

	private String host(int id) {
		return (this.network != null) ? this.network.address(id) : ZooKeeperEnsemble.LOOPBACK;
	}

	private static int clientPort(int id, int[] ports) {
		return ports[3 * (id - 1)];
	}

	private int secureClientPort(int id, int[] ports) {
		return this.secureClientPort ? ports[3 * this.servers + id - 1] : 0;
	}

	private List<String> serverJvmArgs() {
		List<String> args = new ArrayList<>(List.of("-Xmx256m", "-XX:+UseSerialGC",
				"-Dznode.container.checkIntervalMs=" + this.containerCheckInterval.toMillis(),
				"-Dzookeeper.admin.enableServer=false", "-Dzookeeper.forceSync=no",
				"-Dzookeeper.jmx.log4j.disable=true", "-Dlogback.configurationFile=" + LOGBACK_CONFIGURATION));
		args.addAll(this.jvmArgs);
		return args;
	}

	private static int[] freePorts(int count) throws IOException {
		InetAddress loopback = InetAddress.getByName(ZooKeeperEnsemble.LOOPBACK);
		List<ServerSocket> sockets = new ArrayList<>();
		try {
			int[] ports = new int[count];
			for (int i = 0; i < count; i++) {
				ServerSocket socket = new ServerSocket(0, 1, loopback);
				sockets.add(socket);
				ports[i] = socket.getLocalPort();
			}
			return ports;
		}
		finally {
			for (ServerSocket socket : sockets) {
				socket.close();
			}
		}
	}

}
