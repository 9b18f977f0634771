package dev.zklock.leader;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The thread on which the leader-only components of one group are started and stopped, in the
 * order the tasks were handed to it.
 */
final class ComponentThread {

	private static final Log logger = LogFactory.getLog(ComponentThread.class);

	private final String group;

	private final ScheduledThreadPoolExecutor executor;

	private final Duration waitTimeout;

	private volatile @Nullable Thread worker;

	ComponentThread(String group, Duration waitTimeout) {
		this.group = group;
		this.waitTimeout = waitTimeout;
		CustomizableThreadFactory threads = new CustomizableThreadFactory("zklock-leader-components-" + group + "-");
		threads.setDaemon(true);
		this.executor = new ScheduledThreadPoolExecutor(1, threads);
		this.executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
	}

	/**
	 * Run the task after those handed over before, unless closed.
	 */
	@Nullable Future<?> submit(Runnable task) {
		try {
			return this.executor.submit(() -> runAsWorker(task));
		}
		catch (RejectedExecutionException ex) {
			return null; // Closed.
		}
	}

	void schedule(Runnable task, long delayMillis) {
		try {
			this.executor.schedule(() -> runAsWorker(task), delayMillis, TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Closed.
		}
	}

	boolean isCurrent() {
		return Thread.currentThread() == this.worker;
	}

	/**
	 * Run the task after those handed over before and wait for it, up to the timeout; at once
	 * when called on this thread.
	 */
	void runAndWait(Runnable task) {
		await(runOrSubmit(task), System.nanoTime() + this.waitTimeout.toNanos());
	}

	/**
	 * Run the task at once when called on this thread, else hand it over.
	 * @return the task's future, {@code null} if it has run or the thread is closed
	 */
	@Nullable Future<?> runOrSubmit(Runnable task) {
		if (isCurrent()) {
			task.run();
			return null;
		}
		return submit(task);
	}

	/**
	 * Wait for a task handed over by {@link #runOrSubmit}, up to a deadline.
	 * @param deadline the deadline, in {@link System#nanoTime()}
	 */
	void await(@Nullable Future<?> done, long deadline) {
		if (done == null) {
			return;
		}
		try {
			done.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			logger.error("Could not stop the leader-only components of group '" + this.group + "'", ex.getCause());
		}
		catch (TimeoutException ex) {
			logger.warn("The leader-only components of group '" + this.group + "' were still stopping after "
					+ this.waitTimeout.toMillis() + "ms");
		}
	}

	void close() {
		this.executor.shutdownNow();
	}

	private void runAsWorker(Runnable task) {
		this.worker = Thread.currentThread();
		try {
			task.run();
		}
		catch (Throwable ex) {
			logger.error("The leader-only components of group '" + this.group + "' could not be started or stopped",
					ex);
		}
	}

}
