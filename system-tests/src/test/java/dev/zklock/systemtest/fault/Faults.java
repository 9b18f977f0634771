package dev.zklock.systemtest.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import dev.zklock.systemtest.fault.ClusterObserver.Holder;

/**
 * Injects faults into a {@link Cluster} and records each in its history: every method returns
 * once the fault is healed (the process runs again, the pause or partition is over).
 */
final class Faults {

	private static final Duration FIND_TIMEOUT = Duration.ofSeconds(30);

	private static final long POLL_MILLIS = 20;

	private final Cluster cluster;

	Faults(Cluster cluster) {
		this.cluster = cluster;
	}

	/**
	 * Kill an application process with {@code SIGKILL}, and start it again after a while.
	 */
	Fault killApp(AppProcess app, Duration downtime) {
		long start = System.currentTimeMillis();
		app.kill();
		return restart(Nemesis.KILL_APP, app, start, downtime);
	}

	/**
	 * Stop an application process with {@code SIGTERM}, and start it again after a while.
	 */
	Fault stopApp(AppProcess app, Duration downtime) {
		long start = System.currentTimeMillis();
		app.stop();
		return restart(Nemesis.STOP_APP, app, start, downtime);
	}

	/**
	 * Pause a process that holds a lock on one of the keys, found by asking ZooKeeper, for the
	 * given time.
	 * @param keys the lock keys to look at
	 * @param pause how long to keep it paused
	 * @param random picks one holder when there are several
	 * @return the fault and the lock the process held when it was paused
	 */
	PausedHolder pauseHolder(List<String> keys, Duration pause, Random random) {
		return pauseHolder(keys, pause, random, Set.of());
	}

	/**
	 * Pause a process that holds a lock on one of the keys, other than the given processes.
	 * @param keys the lock keys to look at
	 * @param pause how long to keep it paused
	 * @param random picks one holder when there are several
	 * @param excluded processes not to pause (another fault has them)
	 * @return the fault and the lock the process held when it was paused
	 */
	PausedHolder pauseHolder(List<String> keys, Duration pause, Random random, Set<String> excluded) {
		long deadline = System.nanoTime() + FIND_TIMEOUT.toNanos();
		while (System.nanoTime() - deadline < 0) {
			List<Holder> holders = holders(keys, false).stream()
				.filter((holder) -> !excluded.contains(holder.process()))
				.toList();
			if (!holders.isEmpty()) {
				Holder holder = holders.get(random.nextInt(holders.size()));
				AppProcess app = this.cluster.app(holder.process());
				long start = System.currentTimeMillis();
				app.pause();
				// It may have released the lock before it stopped: then let it go and look again.
				if (holders(List.of(holder.key()), true).contains(holder)) {
					Cluster.sleep(pause.toMillis());
					app.resume();
					Fault fault = new Fault(Nemesis.PAUSE_HOLDER, app.name(), start, System.currentTimeMillis(),
							"holding " + holder.key() + " " + (holder.exclusive() ? "exclusive" : "shared") + " token="
									+ holder.token());
					record(fault);
					return new PausedHolder(fault, holder);
				}
				app.resume();
			}
			Cluster.sleep(POLL_MILLIS);
		}
		throw new AssertionError("No process held a lock on " + keys + " for " + FIND_TIMEOUT);
	}

	/**
	 * Cut an application process off from every ZooKeeper server for the given time.
	 */
	Fault partitionApp(AppProcess app, Duration duration) {
		long start = System.currentTimeMillis();
		app.proxy().blackhole();
		Cluster.sleep(duration.toMillis());
		app.proxy().heal();
		return record(new Fault(Nemesis.PARTITION_APP, app.name(), start, System.currentTimeMillis(), ""));
	}

	/**
	 * Slow down the link between an application process and every ZooKeeper server for the
	 * given time: each byte arrives the given delay late, each way.
	 */
	Fault slowApp(AppProcess app, Duration delay, Duration duration) {
		long start = System.currentTimeMillis();
		app.proxy().delay(delay);
		Cluster.sleep(duration.toMillis());
		app.proxy().delay(Duration.ZERO);
		return record(new Fault(Nemesis.SLOW_APP, app.name(), start, System.currentTimeMillis(),
				"delay " + delay.toMillis() + " ms each way"));
	}

	/**
	 * Return the application process that leads the workload's group, once there is one.
	 */
	AppProcess leaderApp() {
		long deadline = System.nanoTime() + FIND_TIMEOUT.toNanos();
		while (System.nanoTime() - deadline < 0) {
			try {
				Optional<String> leader = this.cluster.observer().leader();
				if (leader.isPresent() && this.cluster.app(leader.get()).isRunning()) {
					return this.cluster.app(leader.get());
				}
			}
			catch (Exception ex) {
				// ZooKeeper is busy: look again.
			}
			Cluster.sleep(POLL_MILLIS);
		}
		throw new AssertionError("No application process led for " + FIND_TIMEOUT);
	}

	private Fault restart(Nemesis nemesis, AppProcess app, long start, Duration downtime) {
		Cluster.sleep(downtime.toMillis());
		app.start();
		app.awaitReady();
		return record(new Fault(nemesis, app.name(), start, System.currentTimeMillis(), ""));
	}

	/**
	 * Return the holders of the keys' locks whose process runs, paused or not as asked.
	 */
	private List<Holder> holders(List<String> keys, boolean paused) {
		List<Holder> holders = new ArrayList<>();
		try {
			for (String key : keys) {
				for (Holder holder : this.cluster.observer().holders(key)) {
					AppProcess app = this.cluster.app(holder.process());
					if (app.isRunning() && app.isPaused() == paused) {
						holders.add(holder);
					}
				}
			}
		}
		catch (Exception ex) {
			return List.of(); // ZooKeeper is busy: look again.
		}
		return holders;
	}

	Fault record(Fault fault) {
		this.cluster.record(fault);
		System.out.println("[nemesis] " + fault);
		return fault;
	}

	/**
	 * A paused lock holder.
	 *
	 * @param fault the pause
	 * @param holder the lock it held when it was paused
	 */
	record PausedHolder(Fault fault, Holder holder) {

	}

}
