package dev.zklock.systemtest.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.zklock.test.ChaosProxy;
import dev.zklock.systemtest.check.CheckReport;
import dev.zklock.systemtest.check.Checker;
import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.HistoryWriter;
import dev.zklock.systemtest.register.FencedRegister;
import dev.zklock.systemtest.register.RegisterState;
import dev.zklock.test.IsolatedNetwork;
import dev.zklock.test.ZooKeeperEnsemble;
import dev.zklock.test.ZooKeeperEnsembleBuilder;

/**
 * Everything a fault-injection run needs, started together and closed together: a fenced
 * register in this JVM, a ZooKeeper ensemble of three server processes, and three processes of
 * the workload application, each connected to the ensemble through its own {@link ChaosProxy}.
 * The run's folder receives the history of every process, the faults injected, the
 * application and server logs.
 */
final class Cluster implements AutoCloseable {

	/**
	 * The ZooKeeper servers' tick.
	 */
	static final int TICK_TIME_MILLIS = 200;

	/**
	 * The session timeout of the application processes.
	 */
	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

	private static final int APPS = 3;

	private static final long POLL_MILLIS = 200;

	private final Path folder;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final List<AppProcess> apps = new ArrayList<>();

	private final List<Fault> faults = Collections.synchronizedList(new ArrayList<>());

	private final FencedRegister register;

	private final @Nullable IsolatedNetwork network;

	private final ZooKeeperEnsemble ensemble;

	private final ClusterObserver observer;

	private final HistoryWriter faultLog;

	private final RunHistory history;

	private Cluster(Path folder, boolean durable) {
		this.folder = folder;
		try {
			this.register = closing(FencedRegister.start());
			// Servers in network namespaces where root allows, so that the ensemble can be partitioned.
			this.network = IsolatedNetwork.unavailableReason().isEmpty() ? closing(IsolatedNetwork.create(3)) : null;
			// ZooKeeperEnsemble turns forceSync off for speed; a durable run keeps ZooKeeper's default.
			ZooKeeperEnsembleBuilder servers = ZooKeeperEnsemble.builder()
				.tickTime(TICK_TIME_MILLIS)
				.jvmArgs(durable ? new String[] { "-Dzookeeper.forceSync=yes" } : new String[0]);
			if (this.network != null) {
				servers.network(this.network);
			}
			this.ensemble = closing(servers.start());
			this.observer = closing(new ClusterObserver(this.ensemble.connectString()));
			this.faultLog = closing(HistoryWriter.open(historyFolder().resolve(Fault.PROCESS + ".jsonl")));
			this.history = new RunHistory(historyFolder());
			for (int i = 1; i <= APPS; i++) {
				String name = "app-" + i;
				ChaosProxy proxy = closing(ChaosProxy.start(this.ensemble.connectString()));
				this.apps.add(closing(new AppProcess(name, proxy, folder.resolve("logs").resolve(name + ".log"),
						AppProcess.properties(name, proxy, historyFolder().resolve(name + ".jsonl"), this.register.uri()))));
			}
		}
		catch (RuntimeException | Error ex) {
			closeAfter(ex);
			throw ex;
		}
	}

	/**
	 * Start everything and wait until every application process is ready.
	 * @param folder the run's folder, created if need be
	 * @param durable whether the servers sync their log to disk before acknowledging a write
	 * ({@code forceSync=yes}, ZooKeeper's default), as in production
	 * @return the running cluster
	 */
	static Cluster start(Path folder, boolean durable) {
		Cluster cluster = null;
		try {
			Files.createDirectories(folder.resolve("logs"));
			cluster = new Cluster(folder, durable);
			cluster.apps.forEach(AppProcess::start);
			cluster.apps.forEach(AppProcess::awaitReady);
			return cluster;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not create run folder " + folder, ex);
		}
		catch (RuntimeException | Error ex) {
			if (cluster != null) {
				cluster.closeAfter(ex);
			}
			throw ex;
		}
	}

	Path folder() {
		return this.folder;
	}

	List<AppProcess> apps() {
		return this.apps;
	}

	AppProcess app(String name) {
		return this.apps.stream()
			.filter((app) -> app.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No application process " + name));
	}

	ZooKeeperEnsemble ensemble() {
		return this.ensemble;
	}

	/**
	 * Return the network the servers run in, if partitions of the ensemble are possible here.
	 * @return the network, or empty when the servers run on loopback
	 */
	Optional<IsolatedNetwork> network() {
		return Optional.ofNullable(this.network);
	}

	ClusterObserver observer() {
		return this.observer;
	}

	/**
	 * Record an injected fault in the run's history.
	 * @param fault the fault
	 */
	void record(Fault fault) {
		this.faults.add(fault);
		this.faultLog.append(fault.toOperation());
	}

	List<Fault> faults() {
		return List.copyOf(this.faults);
	}

	/**
	 * Return the history so far: every line the processes have completed.
	 * @return the history
	 */
	History history() {
		return this.history.read();
	}

	/**
	 * Check the invariants on the history so far and the registers. The history is read
	 * first: a process logs an increment only once the register has accepted it.
	 * @return the report
	 */
	CheckReport check() {
		return check(history());
	}

	/**
	 * Check the invariants on a history read before this call, and the registers now.
	 * @param history the history
	 * @return the report
	 */
	CheckReport check(History history) {
		List<RegisterState> registers = this.register.states();
		return Checker.check(history, registers);
	}

	/**
	 * Stop the workload: every application process that runs, gracefully, one after the other,
	 * so that each logs the operations it was running.
	 */
	void stopApps() {
		for (AppProcess app : this.apps) {
			if (app.isPaused()) {
				app.resume();
			}
			if (app.isRunning()) {
				app.stop();
			}
		}
	}

	/**
	 * Check the invariants on the history of a stopped workload and the registers: every write
	 * the registers accepted must then be accounted for.
	 * @param history the history, read once the workload has stopped
	 * @return the report
	 */
	CheckReport checkStopped(History history) {
		return Checker.checkStopped(history, this.register.states(), AppProcess.INCREMENTING_THREADS);
	}

	/**
	 * Wait until every running application process has completed a locked operation ok, and
	 * some process an ok leader tick, since the given time.
	 * @param since epoch milliseconds
	 * @param timeout how long to wait
	 * @throws AssertionError if that does not happen in time
	 */
	void awaitProgress(long since, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			List<String> running = this.apps.stream().filter(AppProcess::isRunning).map(AppProcess::name).toList();
			Set<String> waitingFor = this.history.withoutProgress(running, since);
			boolean ticked = this.history.tickedSince(since);
			if (waitingFor.isEmpty() && ticked) {
				return;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("No progress within " + timeout + " since " + since + ": no ok locked operation of "
						+ waitingFor + (ticked ? "" : ", no ok leader tick") + "; see " + this.folder);
			}
			sleep(POLL_MILLIS);
		}
	}

	/**
	 * Kill every process, stop the proxies and the register, and keep the servers' logs in the
	 * run's folder.
	 */
	@Override
	public void close() {
		RuntimeException failure = closeAll();
		if (failure != null) {
			throw failure;
		}
	}

	private void closeAfter(Throwable cause) {
		RuntimeException failure = closeAll();
		if (failure != null) {
			cause.addSuppressed(failure);
		}
	}

	private RuntimeException closeAll() {
		RuntimeException failure = null;
		List<AutoCloseable> reversed = new ArrayList<>(this.closeables);
		Collections.reverse(reversed);
		for (AutoCloseable closeable : reversed) {
			if (closeable == this.ensemble) {
				keepServerLogs();
			}
			try {
				closeable.close();
			}
			catch (Exception ex) {
				if (failure == null) {
					failure = new IllegalStateException("Could not close " + closeable, ex);
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		this.closeables.clear();
		return failure;
	}

	private void keepServerLogs() {
		for (int id = 1; id <= this.ensemble.size(); id++) {
			try {
				Files.copy(this.ensemble.log(id), this.folder.resolve("logs").resolve("zk-" + id + ".log"),
						StandardCopyOption.REPLACE_EXISTING);
			}
			catch (IOException ex) {
				// The logs are for post-mortems only.
			}
		}
	}

	private Path historyFolder() {
		return this.folder.resolve("history");
	}

	private <T extends AutoCloseable> T closing(T closeable) {
		this.closeables.add(closeable);
		return closeable;
	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

}
