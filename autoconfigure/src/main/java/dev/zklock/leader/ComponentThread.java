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
 * The one thread on which leader-only components are started and stopped, in the order the
 * tasks were handed to it.
 */
final class ComponentThread {

	private static final Log logger = LogFactory.getLog(ComponentThread.class);

	private final ScheduledThreadPoolExecutor executor;

	private final Duration waitTimeout;

	private volatile @Nullable Thread worker;

	ComponentThread(Duration waitTimeout) {
		this.waitTimeout = waitTimeout;
		CustomizableThreadFactory threads = new CustomizableThreadFactory("zklock-leader-components-");
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
		if (isCurrent()) {
			task.run();
			return;
		}
		Future<?> done = submit(task);
		if (done == null) {
			return;
		}
		try {
			done.get(this.waitTimeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			logger.error("Could not stop leader-only components", ex.getCause());
		}
		catch (TimeoutException ex) {
			logger.warn("Leader-only components were still stopping after " + this.waitTimeout.toMillis() + "ms");
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
		catch (RuntimeException ex) {
			logger.error("Leader-only components could not be started or stopped", ex);
		}
	}

}
