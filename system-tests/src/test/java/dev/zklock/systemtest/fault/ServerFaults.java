package dev.zklock.systemtest.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;

import dev.zklock.test.ZooKeeperEnsemble;

/**
 * Injects faults into the ZooKeeper servers of a {@link Cluster}, one server at a time, and
 * records each with {@link Faults}: every method returns once the fault is healed and the
 * ensemble has a quorum again.
 */
final class ServerFaults {

	private static final Duration SERVER_TIMEOUT = Duration.ofSeconds(60);

	private final Cluster cluster;

	private final Faults faults;

	ServerFaults(Cluster cluster, Faults faults) {
		this.cluster = cluster;
		this.faults = faults;
	}

	/**
	 * Pause a ZooKeeper server with {@code SIGSTOP}, the leader or a follower (picked at random),
	 * for the given time.
	 */
	Fault pauseZooKeeper(boolean leader, Duration pause, Random random) {
		ZooKeeperEnsemble ensemble = this.cluster.ensemble();
		ensemble.awaitQuorum(SERVER_TIMEOUT);
		int id = leader ? zooKeeperLeader() : zooKeeperFollower(random);
		long start = System.currentTimeMillis();
		ensemble.pause(id);
		Cluster.sleep(pause.toMillis());
		ensemble.resume(id);
		ensemble.awaitQuorum(SERVER_TIMEOUT);
		return this.faults.record(new Fault(Nemesis.PAUSE_ZK, "zk-" + id, start, System.currentTimeMillis(),
				leader ? "the leader" : "a follower"));
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
		return this.faults.record(new Fault(leader ? Nemesis.KILL_ZK_LEADER : Nemesis.KILL_ZK_FOLLOWER, "zk-" + id, start,
				System.currentTimeMillis(), ""));
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

}
