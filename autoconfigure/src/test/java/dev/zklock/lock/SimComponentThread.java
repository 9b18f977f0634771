package dev.zklock.lock;

import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.zklock.leader.SimulatedComponents;

/**
 * The simulated thread on which one instance starts and stops the leader-only components of
 * one group: its tasks run one at a time, in order, as events of the instance (frozen while it
 * is paused). A component's {@code start()} or {@code stop()} that takes time keeps the thread
 * busy ({@link #occupy}): the next task, and the end of the task for those who wait for it,
 * come that much later. Waiting for a task lets the world go on, as a thread blocked on a
 * future does.
 */
final class SimComponentThread implements SimulatedComponents.Worker {

	private static final long WAKE_UP = 50_000;

	private final SimWorld world;

	private final String actor;

	private final String name;

	private final Waits waits;

	private final ArrayDeque<Task> queue = new ArrayDeque<>();

	private boolean busy;

	private long busyUntil;

	private boolean closed;

	SimComponentThread(SimWorld world, String actor, String name, Waits waits) {
		this.world = world;
		this.actor = actor;
		this.name = name;
		this.waits = waits;
	}

	@Override
	public Future<?> submit(Runnable task) {
		if (this.closed) {
			throw new RejectedExecutionException(this.name + " is closed");
		}
		Task handed = new Task(task);
		this.queue.add(handed);
		if (!this.busy) {
			this.busy = true;
			this.world.schedule(this.actor, this.world.between(0, WAKE_UP), this.name + " runs a task", this::runNext);
		}
		return handed;
	}

	@Override
	public void schedule(Runnable task, long delayMillis) {
		if (this.closed) {
			throw new RejectedExecutionException(this.name + " is closed");
		}
		this.world.schedule(this.actor, SimWorld.millis(delayMillis), this.name + " timer", () -> {
			if (!this.closed) {
				submit(task);
			}
		});
	}

	@Override
	public void afterCurrentWork(Runnable action) {
		this.world.at(this.actor, Math.max(this.busyUntil, this.world.now()), this.name + " goes on", action);
	}

	@Override
	public void close() {
		this.closed = true;
		this.queue.clear();
	}

	/**
	 * Keep the thread busy for a while more: a component's start or stop takes that long,
	 * after what the task did before it.
	 * @return when that work ends
	 */
	long occupy(long nanos) {
		this.busyUntil = Math.max(this.busyUntil, this.world.now()) + nanos;
		return this.busyUntil;
	}

	private void runNext() {
		Task task = this.queue.poll();
		if (task == null) {
			this.busy = false;
			return;
		}
		this.busyUntil = this.world.now();
		task.task.run();
		this.world.at(this.actor, this.busyUntil, this.name + " ends a task", () -> {
			task.done = true;
			if (this.queue.isEmpty()) {
				this.busy = false;
			}
			else {
				this.world.schedule(this.actor, this.world.between(0, WAKE_UP), this.name + " runs a task",
						this::runNext);
			}
		});
	}

	/**
	 * Runs the world's next event due by a time, and checks the promises after it.
	 */
	@FunctionalInterface
	interface Waits {

		/**
		 * @return {@code false} if no event is due by then (or a promise is broken)
		 */
		boolean stepBy(long time);

	}

	private final class Task implements Future<Object> {

		final Runnable task;

		boolean done;

		Task(Runnable task) {
			this.task = task;
		}

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			return false;
		}

		@Override
		public boolean isCancelled() {
			return false;
		}

		@Override
		public boolean isDone() {
			return this.done;
		}

		@Override
		public Object get() throws ExecutionException {
			try {
				return get(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException ex) {
				throw new ExecutionException(ex);
			}
		}

		@Override
		public Object get(long timeout, TimeUnit unit) throws TimeoutException {
			SimWorld world = SimComponentThread.this.world;
			long nanos = unit.toNanos(timeout);
			long deadline = (nanos > Long.MAX_VALUE - world.now()) ? Long.MAX_VALUE : world.now() + nanos;
			while (!this.done && SimComponentThread.this.waits.stepBy(deadline)) {
				// The waiting thread is blocked; every other goes on.
			}
			if (!this.done) {
				throw new TimeoutException(SimComponentThread.this.name + " did not end the task");
			}
			return null;
		}

	}

}
