package dev.zklock.leader;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Threads and checks for the tests that a controlled scheduler runs (Lincheck's model checker,
 * Fray): plain threads, joined without a timeout (the scheduler decides when they run), and a
 * check that fails with an {@link AssertionError} rather than through AssertJ, whose service
 * loading fails under Lincheck's instrumentation. Shared by the race tests of
 * {@code dev.zklock.lock}.
 */
public final class RaceThreads {

	private RaceThreads() {
	}

	public static Thread start(Runnable task) {
		Thread thread = new Thread(task);
		thread.start();
		return thread;
	}

	public static void join(Thread... threads) {
		for (Thread thread : threads) {
			if (!joinUninterruptibly(thread)) {
				throw new AssertionError("interrupted while joining " + thread);
			}
		}
	}

	/**
	 * Wait for a thread to end.
	 * @return {@code false} if the waiting thread was interrupted (its flag then cleared)
	 */
	static boolean joinUninterruptibly(Thread thread) {
		try {
			thread.join();
			return true;
		}
		catch (InterruptedException ex) {
			try {
				thread.join();
			}
			catch (InterruptedException again) {
				throw new AssertionError("interrupted twice while joining " + thread, again);
			}
			return false;
		}
	}

	/**
	 * Wait for a task handed to another thread, and fail with what it threw.
	 */
	public static void await(Future<?> done) {
		try {
			done.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError(ex);
		}
		catch (ExecutionException ex) {
			throw new AssertionError(ex.getCause());
		}
	}

	public static void check(boolean holds, String otherwise) {
		if (!holds) {
			throw new AssertionError(otherwise);
		}
	}

}
