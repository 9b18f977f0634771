package dev.zklock.lock;

import java.util.SplittableRandom;

/**
 * The faults of one run, and how often each comes: drawn from the seed, so that some runs are
 * calm and others storms, and each kind of fault is on in some runs and off in others.
 *
 * @param dropAfterApply the chance that a link breaks right after the server applied a request,
 * losing its reply
 * @param slowReply the chance that a reply is delayed by up to {@code slowReplyMax}
 * @param slowReplyMax the longest extra delay of a slow reply
 * @param reorderOnReconnect the chance that the requests resent after a reconnect go out in
 * another order than they were first sent
 * @param maxRetries the most retries of one request (Curator's retry policy); 0 to give every
 * failure to the core
 * @param longOutages whether a connection may stay down longer than the session timeout
 * @param disconnects whether connection drops are among the run's faults
 * @param pauses whether process pauses are among the run's faults
 * @param slowServer whether the server may answer one instance seconds late (a server's long
 * garbage collection), without the client dropping the connection
 * @param endDrops the chance that an instance's connection drops just as the faults stop, and
 * comes back with its session: the calls then in progress end while their nodes are in doubt,
 * and no later call wakes a call that the reconnect did not
 */
record SimFaults(double dropAfterApply, double slowReply, long slowReplyMax, double reorderOnReconnect,
		int maxRetries, boolean longOutages, boolean disconnects, boolean pauses, boolean slowServer,
		double endDrops) {

	static final SimFaults NONE = new SimFaults(0, 0, 0, 0, 3, false, false, false, false, 0);

	/**
	 * Draw a run's faults.
	 * @param world the world, whose source draws the faults that runs had before the drops at
	 * the end
	 * @param ends a source of its own for the drops at the end, so that the other draws stay
	 * those the seed gave before
	 */
	static SimFaults draw(SimWorld world, SplittableRandom ends) {
		boolean storm = world.chance(0.3);
		return new SimFaults(world.chance(0.5) ? (storm ? 0.02 : 0.003) : 0, world.chance(0.5) ? 0.02 : 0,
				SimWorld.millis(world.chance(0.5) ? 30 : 5), world.chance(0.5) ? 0.5 : 0,
				world.chance(0.3) ? 0 : world.random().nextInt(1, 4), world.chance(0.5), world.chance(0.8),
				world.chance(0.6), world.chance(0.5), ends.nextBoolean() ? 0.7 : 0);
	}

	/**
	 * Draw whether a run's clients set their watches again at a reconnect: in three runs of four,
	 * as ZooKeeper's client does by default; in the others they run with
	 * {@code zookeeper.disableAutoWatchReset=true}, so that the code under test must not rely on a
	 * watch surviving a reconnect. A random source of its own, so that the run's other draws stay
	 * those the seed gave before.
	 */
	static boolean watchReset(long seed) {
		return new SplittableRandom(seed ^ 0x6A09_E667_F3BCL).nextInt(4) != 0;
	}

	/**
	 * Draw the chance that a request made while its client is not connected is refused at once,
	 * on the calling thread ({@link SimClient#refusesWhileDisconnected}): in half the runs, 0.5.
	 * A random source of its own, so that the run's other draws stay those the seed gave before.
	 */
	static double refusedAtOnce(long seed) {
		return new SplittableRandom(seed ^ 0x3C6E_F372_FE94_F82BL).nextBoolean() ? 0.5 : 0;
	}

	long latency(SimWorld world) {
		long base = world.between(SimWorld.millis(0.1), SimWorld.millis(1.5));
		return (this.slowReply > 0 && world.chance(this.slowReply)) ? base + world.between(0, this.slowReplyMax) : base;
	}

	int retries(SimWorld world) {
		return (this.maxRetries == 0) ? 0 : world.random().nextInt(0, this.maxRetries + 1);
	}

	/**
	 * How long the client takes to notice a broken link: at most 60 % of the session timeout
	 * (ZooKeeper's read timeout is two thirds of it).
	 */
	long noticeDelay(SimWorld world, long sessionTimeout) {
		return world.chance(0.5) ? world.between(SimWorld.millis(1), SimWorld.millis(5))
				: world.between(SimWorld.millis(1), sessionTimeout * 6 / 10);
	}

	/**
	 * How long a broken link stays down: sometimes past the session timeout.
	 */
	long downtime(SimWorld world, long sessionTimeout) {
		if (this.longOutages && world.chance(0.3)) {
			return world.between(sessionTimeout, sessionTimeout * 2);
		}
		return world.between(SimWorld.millis(1), sessionTimeout / 2);
	}

}
