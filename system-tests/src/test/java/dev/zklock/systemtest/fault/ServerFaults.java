package dev.zklock.systemtest.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;

import dev.zklock.test.IsolatedNetwork;
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

	/**
	 * Partition the ensemble for the given time, in one of three shapes picked at random: the
	 * ZooKeeper leader cut off from both followers, the follower with the most clients cut off
	 * from the other two, or one server (picked at random) from the other two. Clients keep
	 * their links to every server: those of the cut-off server lose it once it stops serving, and
	 * reconnect to the others.
	 */
	Fault partitionZooKeeper(Duration duration, Random random) {
		EnsemblePartition[] shapes = EnsemblePartition.values();
		return partitionZooKeeper(shapes[random.nextInt(shapes.length)], duration, random);
	}

	/**
	 * Partition the ensemble in the given shape for the given time.
	 */
	Fault partitionZooKeeper(EnsemblePartition shape, Duration duration, Random random) {
		IsolatedNetwork network = this.cluster.network()
			.orElseThrow(() -> new IllegalStateException("The servers do not run in an isolated network: "
					+ IsolatedNetwork.unavailableReason().orElse("")));
		ZooKeeperEnsemble ensemble = this.cluster.ensemble();
		ensemble.awaitQuorum(SERVER_TIMEOUT);
		int alone = switch (shape) {
			case LEADER_ALONE -> zooKeeperLeader();
			case FOLLOWER_ALONE -> busiestFollower();
			case ONE_FROM_TWO -> 1 + random.nextInt(ensemble.size());
		};
		String role = ensemble.mode(alone);
		int clients = ensemble.connections(alone);
		Set<Integer> others = new HashSet<>();
		for (int id = 1; id <= ensemble.size(); id++) {
			if (id != alone) {
				others.add(id);
			}
		}
		long start = System.currentTimeMillis();
		network.partition(List.of(Set.of(alone), others));
		Cluster.sleep(duration.toMillis());
		network.heal();
		long end = System.currentTimeMillis();
		ensemble.awaitServing(alone, SERVER_TIMEOUT);
		ensemble.awaitQuorum(SERVER_TIMEOUT);
		String what = switch (shape) {
			case LEADER_ALONE -> "the leader cut off from both followers";
			case FOLLOWER_ALONE -> "the follower with the most clients cut off";
			case ONE_FROM_TWO -> "a split of one server (the " + role + ") from two";
		};
		return this.faults.record(new Fault(Nemesis.PARTITION_ZK, "zk-" + alone, start, end,
				what + ", " + clients + " client connection(s) on it"));
	}

	private int busiestFollower() {
		ZooKeeperEnsemble ensemble = this.cluster.ensemble();
		int busiest = -1;
		int most = -1;
		for (int id = 1; id <= ensemble.size(); id++) {
			if ("follower".equals(ensemble.mode(id)) && ensemble.connections(id) > most) {
				busiest = id;
				most = ensemble.connections(id);
			}
		}
		if (busiest < 0) {
			throw new AssertionError("The ensemble has a quorum but no follower");
		}
		return busiest;
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

	/**
	 * The shapes of a partition inside the ensemble.
	 */
	enum EnsemblePartition {

		/** The ZooKeeper leader cut off from both followers. */
		LEADER_ALONE,

		/** The follower with the most client connections cut off from the other two servers. */
		FOLLOWER_ALONE,

		/** One server, picked at random whatever its role, cut off from the other two. */
		ONE_FROM_TWO

	}

}
