package dev.zklock.systemtest.fault;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Random;

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

	static final List<String> KEYS = List.of("counter", "mix");

	private final String name;

	private final Cluster cluster;

	private final Faults faults;

	private final long started;

	private FaultRun(String name, Cluster cluster, long started) {
		this.name = name;
		this.cluster = cluster;
		this.faults = new Faults(cluster);
		this.started = started;
	}

	/**
	 * Start a run's cluster and wait until it makes progress.
	 * @param name the run's name, which its folder starts with
	 * @return the run
	 */
	static FaultRun start(String name) {
		String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
		Path folder = Path.of("target", "system-tests", name + "-" + stamp).toAbsolutePath();
		System.out.println("[run] " + name + ": output in " + folder);
		long started = System.currentTimeMillis();
		Cluster cluster = Cluster.start(folder);
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
		return new FaultRun(name, cluster, started);
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
			Fault fault = apply(step);
			awaitRecovery(fault);
			long left = (deadline - System.nanoTime()) / 1_000_000;
			Cluster.sleep(Math.max(0, Math.min(step.quiet().toMillis(), left)));
		}
		List<Fault> all = this.cluster.faults();
		return all.subList(before, all.size());
	}

	/**
	 * Inject one fault of a schedule.
	 */
	Fault apply(Step step) {
		return switch (step.nemesis()) {
			case KILL_APP -> this.faults.killApp(target(step), step.duration());
			case STOP_APP -> this.faults.stopApp(target(step), step.duration());
			case PAUSE_HOLDER -> this.faults.pauseHolder(KEYS, step.duration(), new Random(step.choiceSeed())).fault();
			case PARTITION_APP -> this.faults.partitionApp(target(step), step.duration());
			case KILL_ZK_FOLLOWER -> this.faults.killZooKeeper(false, step.duration(), new Random(step.choiceSeed()));
			case KILL_ZK_LEADER -> this.faults.killZooKeeper(true, step.duration(), new Random(step.choiceSeed()));
		};
	}

	/**
	 * Check the history so far and summarize the run.
	 * @param seed the seed of its random schedule, if any
	 * @return the summary, also written to the run's folder
	 */
	RunSummary summarize(@Nullable Long seed) {
		long duration = System.currentTimeMillis() - this.started;
		History history = this.cluster.history();
		RunSummary summary = new RunSummary(this.name, seed, duration, this.cluster.check(history), this.cluster.faults(),
				history);
		summary.writeTo(this.cluster.folder().resolve("summary.txt"));
		System.out.println("[run] " + this.name + " summary (" + this.cluster.folder().resolve("summary.txt") + "):\n"
				+ summary);
		return summary;
	}

	@Override
	public void close() {
		this.cluster.close();
	}

	private AppProcess target(Step step) {
		return step.atLeader() ? this.faults.leaderApp() : this.cluster.app(step.app());
	}

}
