package dev.zklock.systemtest.fault;

import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

import org.jspecify.annotations.Nullable;

/**
 * A random sequence of faults drawn from a seed, so that a run can be replayed with the same
 * faults, targets (by role) and durations; the timing of the processes themselves differs from
 * run to run. One step in three is a pair of overlapping faults: the second begins while the
 * first lasts. A pair never takes two ZooKeeper servers away (the quorum stays), never pauses
 * two lock holders, and hits two different application processes when both hit one.
 */
final class NemesisSchedule {


	private static final int MAX_OFFSET_MILLIS = 3000;

	private final long seed;

	private final Random random;

	private final int apps;

	private final Nemesis[] nemeses;

	/**
	 * Draw from every kind of fault.
	 * @param seed the seed
	 * @param apps the number of application processes
	 */
	NemesisSchedule(long seed, int apps) {
		this(seed, apps, true);
	}

	/**
	 * Draw from every kind of fault, partitions of the ensemble only if they are possible.
	 * @param seed the seed
	 * @param apps the number of application processes
	 * @param ensemblePartitions whether the servers run in an isolated network
	 */
	NemesisSchedule(long seed, int apps, boolean ensemblePartitions) {
		this.seed = seed;
		this.random = new Random(seed);
		this.apps = apps;
		this.nemeses = Arrays.stream(Nemesis.values())
			.filter((nemesis) -> ensemblePartitions || nemesis != Nemesis.PARTITION_ZK)
			.toArray(Nemesis[]::new);
	}

	long seed() {
		return this.seed;
	}

	/**
	 * Draw the next step.
	 */
	Step next() {
		Step first = draw();
		if (this.random.nextInt(3) != 0) {
			return first;
		}
		Step second = draw();
		while (!compatible(first.nemesis(), second.nemesis())) {
			second = draw();
		}
		int offset = this.random.nextInt((int) Math.min(first.duration().toMillis(), MAX_OFFSET_MILLIS) + 1);
		return first.overlappedBy(second, Duration.ofMillis(offset));
	}

	private static boolean compatible(Nemesis first, Nemesis second) {
		return !(first.targetsServer() && second.targetsServer())
				&& !(first == Nemesis.PAUSE_HOLDER && second == Nemesis.PAUSE_HOLDER);
	}

	private Step draw() {
		Nemesis nemesis = this.nemeses[this.random.nextInt(this.nemeses.length)];
		boolean atLeader = this.random.nextBoolean();
		int app = 1 + this.random.nextInt(this.apps);
		long session = Cluster.SESSION_TIMEOUT.toMillis();
		long faultMillis = switch (nemesis) {
			// Pauses of a holder outlast the session; partitions, slow links and server pauses may or may not.
			case PAUSE_HOLDER -> session + 500 + this.random.nextInt(2500);
			case PARTITION_APP -> 500 + this.random.nextInt((int) session + 3000);
			case SLOW_APP -> 1000 + this.random.nextInt(5000);
			case KILL_APP, STOP_APP -> this.random.nextInt(3000);
			case KILL_ZK_FOLLOWER, KILL_ZK_LEADER -> 500 + this.random.nextInt(4500);
			case PAUSE_ZK -> 500 + this.random.nextInt(5500);
			case PARTITION_ZK -> 1000 + this.random.nextInt(6000);
		};
		long quietMillis = 1000 + this.random.nextInt(4000);
		return new Step(nemesis, atLeader, "app-" + app, Duration.ofMillis(faultMillis), Duration.ofMillis(quietMillis),
				this.random.nextLong(), null);
	}

	/**
	 * One fault of a schedule, or the first of two overlapping ones.
	 *
	 * @param nemesis the kind of fault
	 * @param atLeader for a fault of an application process other than a pause, whether it hits
	 * the leader rather than {@code app}; for a fault of a ZooKeeper server, whether it hits the
	 * ZooKeeper leader rather than a follower
	 * @param app the application process to hit otherwise
	 * @param duration how long the fault lasts: the pause, the partition, the slow link, the time
	 * a killed or stopped process stays down
	 * @param quiet how long to let the system run once it has recovered
	 * @param choiceSeed picks among several lock holders or followers, and the delay of a slow link
	 * @param overlap the fault that begins while this one lasts, if any
	 */
	record Step(Nemesis nemesis, boolean atLeader, String app, Duration duration, Duration quiet, long choiceSeed,
			@Nullable Overlap overlap) {

		Step overlappedBy(Step second, Duration offset) {
			return new Step(this.nemesis, this.atLeader, this.app, this.duration, this.quiet, this.choiceSeed,
					new Overlap(second, offset));
		}

		/**
		 * Return the delay each way of a slow link: 100 to 1,500 ms.
		 */
		Duration delay() {
			return Duration.ofMillis(100 + Math.floorMod(this.choiceSeed, 1400));
		}

	}

	/**
	 * A fault that begins while another lasts.
	 *
	 * @param step the fault
	 * @param offset how long after the other began
	 */
	record Overlap(Step step, Duration offset) {

	}

}
