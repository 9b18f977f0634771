package dev.zklock.test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One server of a {@link ZooKeeperEnsemble}: its configuration, data and log, and the process
 * currently running it, if any.
 */
final class EnsembleServer {

	static final String MAIN_CLASS = "org.apache.zookeeper.server.quorum.QuorumPeerMain";

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	private final int id;

	private final String host;

	private final int clientPort;

	private final int secureClientPort;

	private final List<String> launcher;

	private final Path config;

	private final Path log;

	private final List<String> jvmArgs;

	private final @Nullable String classpath;

	private @Nullable JavaProcess process;

	EnsembleServer(int id, String host, int clientPort, int secureClientPort, Path config, Path log,
			List<String> jvmArgs, List<String> launcher, @Nullable String classpath) {
		this.id = id;
		this.host = host;
		this.launcher = List.copyOf(launcher);
		this.clientPort = clientPort;
		this.secureClientPort = secureClientPort;
		this.config = config;
		this.log = log;
		this.jvmArgs = List.copyOf(jvmArgs);
		this.classpath = classpath;
	}

	int id() {
		return this.id;
	}

	int clientPort() {
		return this.clientPort;
	}

	/**
	 * Return the address the server listens on.
	 */
	String host() {
		return this.host;
	}

	/**
	 * Return the TLS client port, 0 when the server has none.
	 */
	int secureClientPort() {
		return this.secureClientPort;
	}

	Path log() {
		return this.log;
	}

	synchronized void start() {
		if (isRunning()) {
			throw new IllegalStateException("ZooKeeper server " + this.id + " is already running");
		}
		JavaProcessBuilder builder = JavaProcess.builder(MAIN_CLASS)
			.name("zookeeper-" + this.id)
			.launcher(this.launcher)
			.jvmArgs(this.jvmArgs.toArray(String[]::new))
			.args(this.config.toString())
			.output(this.log);
		if (this.classpath != null) {
			builder.classpath(this.classpath);
		}
		this.process = builder.start();
	}

	synchronized void kill() {
		if (this.process != null) {
			this.process.kill();
		}
	}

	synchronized void stop() {
		if (this.process != null) {
			this.process.stop(STOP_TIMEOUT);
		}
	}

	synchronized void pause() {
		running().pause();
	}

	synchronized void resume() {
		running().resume();
	}

	synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	synchronized long pid() {
		if (this.process == null) {
			throw new IllegalStateException("ZooKeeper server " + this.id + " was never started");
		}
		return this.process.pid();
	}

	/**
	 * Return what the server says about itself; a paused or dead server is down without asking.
	 */
	ServerStatus status() {
		synchronized (this) {
			JavaProcess current = this.process;
			if (current == null || !current.isAlive() || current.isPaused()) {
				return ServerStatus.DOWN;
			}
		}
		return ServerStatus.query(this.host, this.clientPort);
	}

	/**
	 * Return a description of why the server process ended, or {@code null} while it runs.
	 */
	synchronized @Nullable String failure() {
		if (this.process == null || this.process.isAlive()) {
			return null;
		}
		return "ZooKeeper server " + this.id + " exited with code " + this.process.waitFor(Duration.ZERO)
				+ JavaProcess.tail(this.process.outputText());
	}

	private JavaProcess running() {
		if (this.process == null || !this.process.isAlive()) {
			throw new IllegalStateException("ZooKeeper server " + this.id + " is not running");
		}
		return this.process;
	}

}
