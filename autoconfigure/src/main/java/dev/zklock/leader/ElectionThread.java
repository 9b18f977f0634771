package dev.zklock.leader;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The one thread on which a group's election talks to ZooKeeper, so that its checks never
 * interleave. Requests for a check that arrive while one is already queued are merged.
 */
final class ElectionThread {

	private static final long RETRY_DELAY_MILLIS = 1000;

	private final String name;

	private final Runnable check;

	private final AtomicBoolean checkQueued = new AtomicBoolean();

	private volatile @Nullable ScheduledExecutorService executor;

	ElectionThread(String name, Runnable check) {
		this.name = name;
		this.check = check;
	}

	void start() {
		CustomizableThreadFactory threads = new CustomizableThreadFactory(this.name + "-");
		threads.setDaemon(true);
		this.executor = Executors.newSingleThreadScheduledExecutor(threads);
	}

	void requestCheck() {
		ScheduledExecutorService executor = this.executor;
		if (executor == null || !this.checkQueued.compareAndSet(false, true)) {
			return;
		}
		try {
			executor.execute(() -> {
				this.checkQueued.set(false);
				this.check.run();
			});
		}
		catch (RejectedExecutionException ex) {
			this.checkQueued.set(false); // Stopped in the meantime.
		}
	}

	void requestCheckLater() {
		ScheduledExecutorService executor = this.executor;
		if (executor == null) {
			return;
		}
		try {
			executor.schedule(this::requestCheck, RETRY_DELAY_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Stopped in the meantime.
		}
	}

	/**
	 * Run a last task after the queued ones, then stop the thread.
	 * @return whether the last task ended within the timeout
	 */
	boolean finish(Runnable last, Duration timeout) {
		ScheduledExecutorService executor = this.executor;
		this.executor = null;
		if (executor == null) {
			return false;
		}
		try {
			Future<?> task = executor.submit(last);
			task.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (RejectedExecutionException | ExecutionException | TimeoutException ex) {
			return false;
		}
		finally {
			executor.shutdownNow();
			this.checkQueued.set(false);
		}
	}

}
