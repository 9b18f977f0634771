package dev.zklock.systemtest.fault;

import java.time.Duration;
import java.util.Random;

/**
 * A random sequence of faults drawn from a seed, so that a run can be replayed with the same
 * faults, targets (by role) and durations; the timing of the processes themselves differs from
 * run to run.
 */
final class NemesisSchedule {

	private static final Nemesis[] NEMESES = Nemesis.values();

	private final long seed;

	private final Random random;

	private final int apps;

	NemesisSchedule(long seed, int apps) {
		this.seed = seed;
		this.random = new Random(seed);
		this.apps = apps;
	}

	long seed() {
		return this.seed;
	}

	/**
	 * Draw the next step.
	 */
	Step next() {
		Nemesis nemesis = NEMESES[this.random.nextInt(NEMESES.length)];
		boolean atLeader = this.random.nextBoolean();
		int app = 1 + this.random.nextInt(this.apps);
		long session = Cluster.SESSION_TIMEOUT.toMillis();
		long faultMillis = switch (nemesis) {
			// Pauses outlast the session; partitions may or may not.
			case PAUSE_HOLDER -> session + 500 + this.random.nextInt(2500);
			case PARTITION_APP -> 500 + this.random.nextInt((int) session + 3000);
			case KILL_APP, STOP_APP -> this.random.nextInt(3000);
			case KILL_ZK_FOLLOWER, KILL_ZK_LEADER -> 500 + this.random.nextInt(4500);
		};
		long quietMillis = 1000 + this.random.nextInt(4000);
		return new Step(nemesis, atLeader, "app-" + app, Duration.ofMillis(faultMillis), Duration.ofMillis(quietMillis),
				this.random.nextLong());
	}

	/**
	 * One fault of a schedule.
	 *
	 * @param nemesis the kind of fault
	 * @param atLeader for a fault of an application process other than a pause, whether it hits
	 * the leader rather than {@code app}
	 * @param app the application process to hit otherwise
	 * @param duration how long the fault lasts: the pause, the partition, the time a killed or
	 * stopped process stays down
	 * @param quiet how long to let the system run once it has recovered
	 * @param choiceSeed picks among several lock holders
	 */
	record Step(Nemesis nemesis, boolean atLeader, String app, Duration duration, Duration quiet, long choiceSeed) {

	}

}
