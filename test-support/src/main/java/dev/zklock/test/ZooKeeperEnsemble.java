package dev.zklock.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A ZooKeeper ensemble of N servers (3 by default), each a separate JVM process running
 * {@code QuorumPeerMain} from the test classpath, on loopback ports, with a data folder each.
 * Servers are numbered by their ZooKeeper {@code myid}, from 1 to N. A single server runs
 * standalone.
 * <p>
 * Servers can be killed, stopped, restarted, paused and resumed one by one, to test what clients
 * do when ZooKeeper fails. No server outlives this JVM (see {@link JavaProcess}), and
 * {@link #close()} kills them all.
 *
 * <pre class="code">
 * try (ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.builder().tickTime(200).start()) {
 *     CuratorFramework client = CuratorFrameworkFactory.newClient(ensemble.connectString(), retry);
 *     ...
 *     ensemble.kill(ensemble.leader().getAsInt());
 *     ensemble.awaitQuorum(Duration.ofSeconds(30));
 * }
 * </pre>
 */
public final class ZooKeeperEnsemble implements AutoCloseable {

	static final String LOOPBACK = "127.0.0.1";

	private static final long POLL_MILLIS = 100;

	private final List<EnsembleServer> servers;

	private final Path dataRoot;

	private final boolean temporaryDataRoot;

	private final AtomicBoolean closed = new AtomicBoolean();

	ZooKeeperEnsemble(List<EnsembleServer> servers, Path dataRoot, boolean temporaryDataRoot) {
		this.servers = List.copyOf(servers);
		this.dataRoot = dataRoot;
		this.temporaryDataRoot = temporaryDataRoot;
	}

	/**
	 * Prepare an ensemble.
	 * @return a builder
	 */
	public static ZooKeeperEnsembleBuilder builder() {
		return new ZooKeeperEnsembleBuilder();
	}

	void start(Duration timeout) {
		try {
			this.servers.forEach(EnsembleServer::start);
			await(timeout, "every server to serve", this.servers,
					() -> this.servers.stream().allMatch(this::isServing));
		}
		catch (RuntimeException ex) {
			try {
				close();
			}
			catch (RuntimeException closeFailure) {
				ex.addSuppressed(closeFailure);
			}
			throw ex;
		}
	}

	/**
	 * Return the connect string of all servers.
	 * @return {@code 127.0.0.1:<port>,127.0.0.1:<port>,...}
	 */
	public String connectString() {
		return this.servers.stream().map((server) -> connectString(server.id())).collect(Collectors.joining(","));
	}

	/**
	 * Return the connect string of one server, for a client that must talk to it only.
	 * @param id the server's myid, from 1
	 * @return {@code 127.0.0.1:<port>}
	 */
	public String connectString(int id) {
		return server(id).host() + ":" + clientPort(id);
	}

	/**
	 * Return the TLS connect string of one server, started with
	 * {@link ZooKeeperEnsembleBuilder#secureClientPort()}.
	 * @param id the server's myid, from 1
	 * @return {@code 127.0.0.1:<TLS port>}
	 * @throws IllegalStateException if the server has no TLS port
	 */
	public String secureConnectString(int id) {
		int port = server(id).secureClientPort();
		if (port == 0) {
			throw new IllegalStateException("Server " + id + " has no TLS client port: build the ensemble with "
					+ "secureClientPort()");
		}
		return server(id).host() + ":" + port;
	}

	/**
	 * Return how many clients a server says are connected to it.
	 * @param id the server's myid, from 1
	 * @return the connections, or -1 when the server is down
	 */
	public int connections(int id) {
		return server(id).status().connections();
	}

	/**
	 * Return the client port of a server.
	 * @param id the server's myid, from 1
	 * @return the port
	 */
	public int clientPort(int id) {
		return server(id).clientPort();
	}

	/**
	 * Return the number of servers.
	 * @return the size of the ensemble
	 */
	public int size() {
		return this.servers.size();
	}

	/**
	 * Kill a server with {@code SIGKILL}, as a crash would; returns once the process is gone.
	 * @param id the server's myid, from 1
	 */
	public void kill(int id) {
		server(id).kill();
	}

	/**
	 * Stop a server gracefully ({@code SIGTERM}), killing it if it takes more than 10 seconds.
	 * @param id the server's myid, from 1
	 */
	public void stop(int id) {
		server(id).stop();
	}

	/**
	 * Start a server again with the same configuration, ports and data, stopping it first if it
	 * still runs. Returns without waiting for it to serve: see {@link #awaitServing(int, Duration)}.
	 * @param id the server's myid, from 1
	 */
	public void restart(int id) {
		EnsembleServer server = server(id);
		server.stop();
		server.start();
	}

	/**
	 * Pause a server with {@code SIGSTOP}: it keeps its sockets open but answers nothing, as in a
	 * long garbage collection pause.
	 * @param id the server's myid, from 1
	 */
	public void pause(int id) {
		server(id).pause();
	}

	/**
	 * Continue a paused server with {@code SIGCONT}.
	 * @param id the server's myid, from 1
	 */
	public void resume(int id) {
		server(id).resume();
	}

	/**
	 * Return whether a server's process is alive, paused or not.
	 * @param id the server's myid, from 1
	 * @return whether it runs
	 */
	public boolean isRunning(int id) {
		return server(id).isRunning();
	}

	/**
	 * Return the server that is the ZooKeeper leader now. If two servers claim it, as an old
	 * leader may briefly after a pause, the one of the later epoch wins.
	 * @return the leader's myid, or empty while there is none or for a standalone server
	 */
	public OptionalInt leader() {
		return leader(statuses());
	}

	/**
	 * Return what a server says it is.
	 * @param id the server's myid, from 1
	 * @return {@code leader}, {@code follower} or {@code standalone}; {@code down} when it is not
	 * running, is paused, or does not serve clients (for example while it takes part in an
	 * election)
	 */
	public String mode(int id) {
		return server(id).status().mode();
	}

	/**
	 * Wait until a quorum serves clients: a leader and enough followers to make a majority, or
	 * the one standalone server.
	 * @param timeout how long to wait
	 * @throws IllegalStateException if the time passes first
	 */
	public void awaitQuorum(Duration timeout) {
		await(timeout, "a quorum", List.of(), this::hasQuorum);
	}

	/**
	 * Wait until a server serves clients, for example after {@link #restart(int)}.
	 * @param id the server's myid, from 1
	 * @param timeout how long to wait
	 * @throws IllegalStateException if the server's process ends or the time passes first
	 */
	public void awaitServing(int id, Duration timeout) {
		EnsembleServer server = server(id);
		await(timeout, "server " + id + " to serve", List.of(server), () -> isServing(server));
	}

	/**
	 * Return the process id of a server, or of its last process when it is not running.
	 * @param id the server's myid, from 1
	 * @return the pid
	 */
	public long pid(int id) {
		return server(id).pid();
	}

	/**
	 * Return the file that receives a server's output (its log), across restarts.
	 * @param id the server's myid, from 1
	 * @return the log file
	 */
	public Path log(int id) {
		return server(id).log();
	}

	/**
	 * Return the folder holding every server's configuration, data and log.
	 * @return the data root
	 */
	public Path dataRoot() {
		return this.dataRoot;
	}

	/**
	 * Kill every server and delete the data root unless it was given to the builder. Calling it
	 * again does nothing.
	 */
	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		RuntimeException failure = null;
		for (EnsembleServer server : this.servers) {
			try {
				server.kill();
			}
			catch (RuntimeException ex) {
				failure = (failure != null) ? failure : ex;
			}
		}
		if (this.temporaryDataRoot) {
			deleteQuietly(this.dataRoot);
		}
		if (failure != null) {
			throw failure;
		}
	}

	private boolean hasQuorum() {
		List<ServerStatus> statuses = statuses();
		if (statuses.size() == 1) {
			return statuses.get(0).isServing();
		}
		long serving = statuses.stream().filter(ServerStatus::isServing).count();
		return serving > statuses.size() / 2 && leader(statuses).isPresent();
	}

	/**
	 * Return the status of every server, in the order of their ids.
	 */
	private List<ServerStatus> statuses() {
		return this.servers.stream().map(EnsembleServer::status).toList();
	}

	private static OptionalInt leader(List<ServerStatus> statuses) {
		int leader = -1;
		long epoch = -1;
		for (int index = 0; index < statuses.size(); index++) {
			ServerStatus status = statuses.get(index);
			if ("leader".equals(status.mode()) && status.epoch() > epoch) {
				leader = index + 1;
				epoch = status.epoch();
			}
		}
		return (leader > 0) ? OptionalInt.of(leader) : OptionalInt.empty();
	}

	private boolean isServing(EnsembleServer server) {
		return server.status().isServing();
	}

	private void await(Duration timeout, String what, List<EnsembleServer> mustRun, BooleanSupplier condition) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			for (EnsembleServer server : mustRun) {
				String failure = server.failure();
				if (failure != null) {
					throw new IllegalStateException("Gave up waiting for " + what + ": " + failure);
				}
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(
						"Timed out after " + timeout + " waiting for " + what + ": " + describe());
			}
			JavaProcess.sleep(POLL_MILLIS);
		}
	}

	private String describe() {
		return this.servers.stream()
			.map((server) -> "server " + server.id() + " " + server.status().mode() + " (log " + server.log() + ")")
			.collect(Collectors.joining(", "));
	}

	private EnsembleServer server(int id) {
		if (id < 1 || id > this.servers.size()) {
			throw new IllegalArgumentException(
					"No ZooKeeper server " + id + ": ids go from 1 to " + this.servers.size());
		}
		return this.servers.get(id - 1);
	}

	private static void deleteQuietly(Path root) {
		try (Stream<Path> paths = Files.walk(root)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// Best effort: a temporary folder left behind is harmless.
		}
	}

}
