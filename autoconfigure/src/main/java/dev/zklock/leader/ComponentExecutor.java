package dev.zklock.leader;

import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Where the tasks of one group's {@link ComponentThread} run, one at a time, in the order they
 * were handed over: a thread of the group's own ({@link #ownThread}); the tests' simulator runs
 * them on its simulated clock instead.
 */
interface ComponentExecutor {

	/**
	 * Run the task after those handed over before.
	 * @return a future done when the task has run
	 * @throws RejectedExecutionException once closed
	 */
	Future<?> submit(Runnable task);

	/**
	 * Run the task after a delay.
	 * @throws RejectedExecutionException once closed
	 */
	void schedule(Runnable task, long delayMillis);

	/**
	 * Run no task from now on; a task running goes on.
	 */
	void close();

	/**
	 * Return an executor with a daemon thread of the group's own.
	 */
	static ComponentExecutor ownThread(String group) {
		CustomizableThreadFactory threads = new CustomizableThreadFactory("zklock-leader-components-" + group + "-");
		threads.setDaemon(true);
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, threads);
		executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		return new ComponentExecutor() {

			@Override
			public Future<?> submit(Runnable task) {
				return executor.submit(task);
			}

			@Override
			public void schedule(Runnable task, long delayMillis) {
				executor.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
			}

			@Override
			public void close() {
				executor.shutdownNow();
			}

		};
	}

}
