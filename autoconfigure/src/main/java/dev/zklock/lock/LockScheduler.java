package dev.zklock.lock;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * The one daemon thread of a lock engine that runs its timed and deferred work: resuming stalled
 * requests, ending kept locks, checking handoff bounds. Its tasks are short and never block on
 * ZooKeeper.
 */
final class LockScheduler {

	private LockScheduler() {
	}

	static ScheduledExecutorService create() {
		ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "zklock-lock-scheduler");
			thread.setDaemon(true);
			return thread;
		});
		scheduler.setRemoveOnCancelPolicy(true);
		return scheduler;
	}

}
