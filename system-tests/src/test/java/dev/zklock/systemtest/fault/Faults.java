package dev.zklock.systemtest.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;

import dev.zklock.systemtest.fault.ClusterObserver.Holder;
import dev.zklock.test.ZooKeeperEnsemble;

/**
 * Injects faults into a {@link Cluster} and records each in its history: every method returns
 * once the fault is healed (the process runs again, the pause or partition is over).
 */
final class Faults {

	private static final Duration FIND_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration SERVER_TIMEOUT = Duration.ofSeconds(60);

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
		long deadline = System.nanoTime() + FIND_TIMEOUT.toNanos();
		while (System.nanoTime() - deadline < 0) {
			List<Holder> holders = holders(keys, false);
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
	 * Kill a ZooKeeper server with {@code SIGKILL}, the leader or a follower (picked at random),
	 * and restart it after a while.
	 */
	Fault killZooKeeper(boolean leader, Duration downtime, Random random) {
		ZooKeeperEnsemble ensemble = this.cluster.ensemble();
		ensemble.awaitQuorum(SERVER_TIMEOUT);
		int id = leader ? zooKeeperLeader() : zooKeeperFollower(random);
		long start = System.currentTimeMillis();
		ensemble.kill(id);
		Cluster.sleep(downtime.toMillis());
		ensemble.restart(id);
		ensemble.awaitServing(id, SERVER_TIMEOUT);
		ensemble.awaitQuorum(SERVER_TIMEOUT);
		return record(new Fault(leader ? Nemesis.KILL_ZK_LEADER : Nemesis.KILL_ZK_FOLLOWER, "zk-" + id, start,
				System.currentTimeMillis(), ""));
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

	private int zooKeeperLeader() {
		OptionalInt leader = this.cluster.ensemble().leader();
		if (leader.isEmpty()) {
			throw new AssertionError("The ensemble has a quorum but no leader");
		}
		return leader.getAsInt();
	}

	private int zooKeeperFollower(Random random) {
		ZooKeeperEnsemble ensemble = this.cluster.ensemble();
		List<Integer> followers = new ArrayList<>();
		for (int id = 1; id <= ensemble.size(); id++) {
			if ("follower".equals(ensemble.mode(id))) {
				followers.add(id);
			}
		}
		if (followers.isEmpty()) {
			throw new AssertionError("The ensemble has a quorum but no follower");
		}
		return followers.get(random.nextInt(followers.size()));
	}

	private Fault record(Fault fault) {
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
