package dev.zklock.leader;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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

	private volatile @Nullable ScheduledExecutorService finishing;

	ElectionThread(String name, Runnable check) {
		this.name = name;
		this.check = check;
	}

	void start() {
		CustomizableThreadFactory threads = new CustomizableThreadFactory(this.name + "-");
		threads.setDaemon(true);
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, threads);
		executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		this.checkQueued.set(false);
		this.executor = executor;
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
	 * Accept no more checks, run a last task after those already queued, and end the thread.
	 * @return a future completed when the last task has run
	 */
	CompletableFuture<Void> finish(Runnable last) {
		ScheduledExecutorService executor = this.executor;
		this.executor = null;
		if (executor == null) {
			return CompletableFuture.completedFuture(null);
		}
		this.finishing = executor;
		CompletableFuture<Void> done = CompletableFuture.runAsync(last, executor);
		executor.shutdown();
		return done;
	}

	/**
	 * End the thread at once, interrupting what it is doing, after {@link #finish} took too
	 * long.
	 */
	void kill() {
		ScheduledExecutorService finishing = this.finishing;
		if (finishing != null) {
			finishing.shutdownNow();
		}
	}

}
