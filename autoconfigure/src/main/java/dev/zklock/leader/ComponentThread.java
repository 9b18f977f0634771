package dev.zklock.leader;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The thread on which the leader-only components of one group are started and stopped, in the
 * order the tasks were handed to it: a thread of the group's own
 * ({@link ComponentExecutor#ownThread}), or the simulated one of the tests, with its clock.
 */
final class ComponentThread {

	private static final Log logger = LogFactory.getLog(ComponentThread.class);

	private final String group;

	private final ComponentExecutor executor;

	private final LongSupplier nanoTime;

	private final Duration waitTimeout;

	private volatile @Nullable Thread worker;

	/**
	 * Create the thread of a group.
	 * @param executor where the tasks run
	 * @param nanoTime the clock of the waits and of the retry delay, {@link System#nanoTime()} in production
	 */
	ComponentThread(String group, Duration waitTimeout, ComponentExecutor executor, LongSupplier nanoTime) {
		this.group = group;
		this.waitTimeout = waitTimeout;
		this.executor = executor;
		this.nanoTime = nanoTime;
	}

	/**
	 * Return the time of the thread's clock, in nanoseconds.
	 */
	long nanoTime() {
		return this.nanoTime.getAsLong();
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
			this.executor.schedule(() -> runAsWorker(task), delayMillis);
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
		await(runOrSubmit(task), nanoTime() + this.waitTimeout.toNanos());
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
	 * @param deadline the deadline, in {@link #nanoTime()}
	 */
	void await(@Nullable Future<?> done, long deadline) {
		if (done == null) {
			return;
		}
		try {
			done.get(Math.max(0, deadline - nanoTime()), TimeUnit.NANOSECONDS);
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
		this.executor.close();
	}

	private void runAsWorker(Runnable task) {
		// The worker is the current thread while a task runs only: the simulator runs every
		// group's tasks, and everything else, on one thread.
		this.worker = Thread.currentThread();
		try {
			task.run();
		}
		catch (Throwable ex) {
			logger.error("The leader-only components of group '" + this.group + "' could not be started or stopped",
					ex);
		}
		finally {
			this.worker = null;
		}
	}

}
