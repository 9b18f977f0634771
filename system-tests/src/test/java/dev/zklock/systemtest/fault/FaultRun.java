package dev.zklock.systemtest.fault;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Random;

import dev.zklock.systemtest.check.CheckReport;
import dev.zklock.systemtest.fault.NemesisSchedule.Step;
import dev.zklock.systemtest.history.History;
import org.jspecify.annotations.Nullable;

/**
 * A fault-injection run: a {@link Cluster}, the {@link Faults} injected into it, and the
 * summary of what happened, written to the run's folder under {@code target/system-tests}.
 */
final class FaultRun implements AutoCloseable {

	/**
	 * The system property holding the seed of a random schedule, to replay one.
	 */
	static final String SEED_PROPERTY = "zklock.systemtest.seed";

	/**
	 * How long the system may take to make progress again after a fault has been healed.
	 */
	static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(90);

	private final String name;

	private final Cluster cluster;

	private final Faults faults;

	private final ServerFaults servers;

	private final StepInjector steps;

	private final long started;

	private final String commit;

	private FaultRun(String name, Cluster cluster, long started, String commit) {
		this.name = name;
		this.commit = commit;
		this.cluster = cluster;
		this.faults = new Faults(cluster);
		this.servers = new ServerFaults(cluster, this.faults);
		this.steps = new StepInjector(cluster, this.faults, this.servers);
		this.started = started;
	}

	/**
	 * Start a run's cluster and wait until it makes progress.
	 * @param name the run's name, which its folder starts with
	 * @param durable whether the ZooKeeper servers sync to disk ({@code forceSync=yes})
	 * @return the run
	 */
	static FaultRun start(String name, boolean durable) {
		String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
		Path folder = Path.of("target", "system-tests", name + "-" + stamp).toAbsolutePath();
		System.out.println("[run] " + name + ": output in " + folder);
		long started = System.currentTimeMillis();
		// Described at the start: the work tree may change while a long run goes on.
		String commit = GitCommit.describe();
		Cluster cluster = Cluster.start(folder, durable);
		try {
			cluster.awaitProgress(started, RECOVERY_TIMEOUT);
		}
		catch (RuntimeException | Error ex) {
			try {
				cluster.close();
			}
			catch (RuntimeException closeFailure) {
				ex.addSuppressed(closeFailure);
			}
			throw ex;
		}
		return new FaultRun(name, cluster, started, commit);
	}

	/**
	 * Return the seed given in {@value #SEED_PROPERTY}, or a new one.
	 */
	static long seed() {
		String seed = System.getProperty(SEED_PROPERTY);
		return (seed != null && !seed.isBlank()) ? Long.parseLong(seed.trim()) : new Random().nextLong();
	}

	Cluster cluster() {
		return this.cluster;
	}

	Faults faults() {
		return this.faults;
	}

	ServerFaults servers() {
		return this.servers;
	}

	/**
	 * Wait until every running process makes progress after a fault.
	 */
	void awaitRecovery(Fault fault) {
		this.cluster.awaitProgress(fault.end(), RECOVERY_TIMEOUT);
	}

	/**
	 * Inject the faults of a random schedule one after the other, letting the system recover
	 * after each, until the given time has passed.
	 * @param schedule the schedule
	 * @param length how long to go on
	 * @return the faults injected
	 */
	List<Fault> run(NemesisSchedule schedule, Duration length) {
		System.out.println("[run] " + this.name + ": random schedule for " + length + " with seed " + schedule.seed()
				+ " (replay with -D" + SEED_PROPERTY + "=" + schedule.seed() + ")");
		int before = this.cluster.faults().size();
		long deadline = System.nanoTime() + length.toNanos();
		while (System.nanoTime() - deadline < 0) {
			Step step = schedule.next();
			List<Fault> faults = apply(step);
			faults.forEach(this::awaitRecovery);
			long left = (deadline - System.nanoTime()) / 1_000_000;
			Cluster.sleep(Math.max(0, Math.min(step.quiet().toMillis(), left)));
		}
		List<Fault> all = this.cluster.faults();
		return all.subList(before, all.size());
	}

	/**
	 * Inject one step of a schedule: one fault, or two that overlap.
	 * @return the faults, once all are healed
	 */
	List<Fault> apply(Step step) {
		return this.steps.apply(step);
	}

	/**
	 * Stop the workload, check its complete history and summarize the run.
	 * @param seed the seed of its random schedule, if any
	 * @return the summary, also written to the run's folder
	 */
	RunSummary finish(@Nullable Long seed) {
		long duration = System.currentTimeMillis() - this.started;
		this.cluster.stopApps();
		History history = this.cluster.history();
		return summarize(seed, duration, history, this.cluster.checkStopped(history));
	}

	/**
	 * Check the history so far, the workload still running, and summarize the run.
	 * @param seed the seed of its random schedule, if any
	 * @return the summary, also written to the run's folder
	 */
	RunSummary summarize(@Nullable Long seed) {
		long duration = System.currentTimeMillis() - this.started;
		History history = this.cluster.history();
		return summarize(seed, duration, history, this.cluster.check(history));
	}

	private RunSummary summarize(@Nullable Long seed, long duration, History history, CheckReport report) {
		RunSummary summary = new RunSummary(this.name, this.commit, seed, duration, report,
				this.cluster.faults(), history);
		summary.writeTo(this.cluster.folder().resolve("summary.txt"));
		System.out.println("[run] " + this.name + " summary (" + this.cluster.folder().resolve("summary.txt") + "):\n"
				+ summary);
		return summary;
	}

	@Override
	public void close() {
		this.cluster.close();
	}

}
