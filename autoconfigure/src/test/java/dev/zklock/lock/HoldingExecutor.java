package dev.zklock.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A template's executor that can hold the tasks it is given, so that a test runs each when it
 * chooses: a cancel then falls exactly between two steps of an asynchronous call (the grant that
 * completes the call's acquisition, the hop that hands its lease on). Tasks not held run on a
 * pool of its own.
 */
public final class HoldingExecutor implements Executor, AutoCloseable {

	private final ExecutorService pool = Executors.newCachedThreadPool();

	private final BlockingQueue<Runnable> held = new LinkedBlockingQueue<>();

	private boolean holding;

	@Override
	public void execute(Runnable task) {
		synchronized (this) {
			if (this.holding) {
				this.held.add(task);
				return;
			}
		}
		this.pool.execute(task);
	}

	/**
	 * Hold every task given from now on, until {@link #release()}.
	 */
	public synchronized void hold() {
		this.holding = true;
	}

	/**
	 * Take the next task held, waiting up to ten seconds for one to be given.
	 * @return the task, not run
	 * @throws InterruptedException if interrupted while waiting
	 */
	public Runnable nextHeld() throws InterruptedException {
		Runnable task = this.held.poll(10, TimeUnit.SECONDS);
		if (task == null) {
			throw new IllegalStateException("No task was given to the executor in ten seconds");
		}
		return task;
	}

	/**
	 * Stop holding tasks, and run on the pool those still held.
	 */
	public void release() {
		List<Runnable> tasks = new ArrayList<>();
		synchronized (this) {
			this.holding = false;
			this.held.drainTo(tasks);
		}
		tasks.forEach(this.pool::execute);
	}

	@Override
	public void close() throws InterruptedException {
		release();
		this.pool.shutdown();
		if (!this.pool.awaitTermination(10, TimeUnit.SECONDS)) {
			this.pool.shutdownNow();
		}
	}

}
