package dev.zklock.systemtest.fault;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.zklock.test.ChaosProxy;
import dev.zklock.systemtest.app.WorkloadApplication;
import dev.zklock.test.JavaProcess;
import dev.zklock.test.JavaProcessBuilder;
import org.jspecify.annotations.Nullable;

/**
 * One process of the workload application, connected to ZooKeeper through its own
 * {@link ChaosProxy}: started, killed, stopped, paused and started again under the same name,
 * history file and log.
 */
final class AppProcess implements AutoCloseable {

	/**
	 * The process that keeps its locks ({@code zklock.lock.keep.idle-time}).
	 */
	static final String KEEPER = "app-1";

	/**
	 * The threads of each process that increment the counter key, passing its lock locally.
	 */
	static final int COUNTER_THREADS = 3;

	/**
	 * The threads of each process that increment a register: counter, mix (two) and kept key.
	 */
	static final int INCREMENTING_THREADS = COUNTER_THREADS + 2 + 1;

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

	private final String name;

	private final ChaosProxy proxy;

	private final Path log;

	private final Map<String, String> properties;

	private @Nullable JavaProcess process;

	AppProcess(String name, ChaosProxy proxy, Path log, Map<String, String> properties) {
		this.name = name;
		this.proxy = proxy;
		this.log = log;
		this.properties = properties;
	}

	/**
	 * Return the configuration of a workload process.
	 * @param name the process's name
	 * @param proxy its way to ZooKeeper
	 * @param history its history file
	 * @param register the fenced register's address
	 * @return the system properties
	 */
	static Map<String, String> properties(String name, ChaosProxy proxy, Path history, URI register) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("zklock.connect-string", proxy.connectString());
		properties.put("zklock.session-timeout", Cluster.SESSION_TIMEOUT.toMillis() + "ms");
		properties.put("zklock.connection-timeout", Cluster.SESSION_TIMEOUT.toMillis() + "ms");
		properties.put("spring.application.name", name);
		properties.put("spring.main.banner-mode", "off");
		properties.put("logging.level.root", "WARN");
		properties.put("logging.level.dev.zklock", "INFO");
		properties.put("systemtest.process", name);
		properties.put("systemtest.history", history.toAbsolutePath().toString());
		properties.put("systemtest.register-uri", register.toString());
		properties.put("systemtest.lock-wait", "2s");
		properties.put("systemtest.counter-threads", Integer.toString(COUNTER_THREADS));
		if (KEEPER.equals(name)) {
			// This process keeps its locks, and increments the kept key often enough to keep it
			// between increments; the others ask for that key now and then.
			properties.put("zklock.lock.keep.idle-time", "2s");
			properties.put("systemtest.kept-key-pause", "20ms");
		}
		else {
			properties.put("systemtest.kept-key-pause", "500ms");
		}
		return properties;
	}

	String name() {
		return this.name;
	}

	ChaosProxy proxy() {
		return this.proxy;
	}

	/**
	 * Start a new process, without waiting for it to be ready.
	 */
	synchronized void start() {
		if (isRunning()) {
			throw new IllegalStateException(this.name + " is running already");
		}
		JavaProcessBuilder builder = JavaProcess.builder(WorkloadApplication.class)
			.name(this.name)
			.output(this.log)
			.jvmArgs("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");
		this.properties.forEach(builder::systemProperty);
		this.process = builder.start();
	}

	/**
	 * Wait until the current process has started.
	 */
	void awaitReady() {
		current().awaitOutput("^" + WorkloadApplication.READY + "$", READY_TIMEOUT);
	}

	boolean isRunning() {
		JavaProcess process = this.process;
		return process != null && process.isAlive();
	}

	boolean isPaused() {
		JavaProcess process = this.process;
		return process != null && process.isPaused();
	}

	/**
	 * Kill the process with {@code SIGKILL}.
	 */
	void kill() {
		current().kill();
	}

	/**
	 * Stop the process with {@code SIGTERM}, killing it if it does not end in time.
	 */
	void stop() {
		current().stop(STOP_TIMEOUT);
	}

	void pause() {
		current().pause();
	}

	void resume() {
		current().resume();
	}

	@Override
	public synchronized void close() {
		JavaProcess process = this.process;
		if (process != null) {
			process.close();
		}
	}

	@Override
	public String toString() {
		JavaProcess process = this.process;
		return this.name + ((process != null) ? " (pid " + process.pid() + ")" : "");
	}

	private synchronized JavaProcess current() {
		JavaProcess process = this.process;
		if (process == null) {
			throw new IllegalStateException(this.name + " was never started");
		}
		return process;
	}

}
