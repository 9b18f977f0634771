package dev.zklock.lock;

import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Bounds a blocking ZooKeeper request by interrupting the calling thread when its time is up.
 * Curator retries a request for as long as its retry policy allows, which can be far longer than
 * a caller wants to wait for a lock when ZooKeeper is unreachable. An interrupted protected create
 * is safe: Curator finds and deletes the node in the background if it was created after all.
 */
final class RequestWatchdog implements AutoCloseable {

	private final ScheduledThreadPoolExecutor scheduler;

	RequestWatchdog() {
		this.scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "zklock-request-watchdog");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.setRemoveOnCancelPolicy(true);
	}

	/**
	 * Run the request, interrupting it if it takes longer than the given time.
	 * @param nanos the time the request may take; {@link Long#MAX_VALUE} for no limit
	 * @param request the request
	 * @return the request's result
	 * @throws RequestTimeoutException if the time ran out
	 * @throws Exception the request's own failure
	 */
	<T> T call(long nanos, Callable<T> request) throws Exception {
		if (nanos == Long.MAX_VALUE) {
			return request.call();
		}
		if (nanos <= 0) {
			throw new RequestTimeoutException();
		}
		Guard guard = new Guard(Thread.currentThread());
		ScheduledFuture<?> alarm = this.scheduler.schedule(guard::fire, nanos, TimeUnit.NANOSECONDS);
		T result;
		try {
			result = request.call();
		}
		catch (Exception ex) {
			if (!guard.finish()) {
				Thread.interrupted();
				throw new RequestTimeoutException();
			}
			throw ex;
		}
		finally {
			alarm.cancel(false);
		}
		if (!guard.finish()) {
			Thread.interrupted();
		}
		return result;
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
	}

	/**
	 * Thrown when a request ran out of time.
	 */
	static final class RequestTimeoutException extends Exception {

		RequestTimeoutException() {
			super("ZooKeeper did not answer in time", null, false, false);
		}

	}

	/**
	 * Decides, under its monitor, whether the request finished or the alarm fired first, so
	 * that an interrupt is never delivered after the caller has moved on.
	 */
	private static final class Guard {

		private final Thread thread;

		private boolean running = true;

		private boolean fired;

		Guard(Thread thread) {
			this.thread = thread;
		}

		synchronized void fire() {
			if (this.running) {
				this.running = false;
				this.fired = true;
				this.thread.interrupt();
			}
		}

		/**
		 * Mark the request finished; return false if the alarm fired first.
		 */
		synchronized boolean finish() {
			this.running = false;
			return !this.fired;
		}

	}

}
