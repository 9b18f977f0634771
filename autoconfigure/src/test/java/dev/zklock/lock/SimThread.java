package dev.zklock.lock;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * A simulated thread of an instance: a real thread that runs only while the simulator waits for
 * it, so that the world still runs one step at a time and the same seed gives the same run. It
 * runs from the event that starts or wakes it until it waits ({@link #await}, {@link #sleep}) or
 * ends; then the simulator goes on. Its waits are events of its instance: they freeze while the
 * instance is paused, as the instance's threads do.
 * <p>
 * A blocking call of the lock core waits only through its port ({@code ZooKeeperPort.await});
 * the simulator's port waits here, so a blocking call, its reentrant calls and its release run on
 * the real classes, their thread-local state included. A thread that blocks anywhere else (a
 * lock held by a waiting thread, a {@code join}) would stop the world: the simulator gives up
 * after {@link #STUCK_SECONDS} seconds and reports it, with the thread's stack.
 */
final class SimThread {

	/**
	 * How long a simulated thread may keep the turn, in real time, before the simulator reports
	 * it stuck.
	 */
	static final long STUCK_SECONDS = 30;

	/**
	 * What passes between a thread's wake-up and its running.
	 */
	private static final long WAKE_UP = 50_000;

	private static final ThreadLocal<@Nullable SimThread> current = new ThreadLocal<>();

	private final SimWorld world;

	private final String actor;

	private final String name;

	private final Semaphore turn = new Semaphore(0);

	private final Semaphore back = new Semaphore(0);

	private @Nullable Thread thread;

	private boolean waiting;

	private long waits;

	private boolean stopping;

	private boolean ended;

	private @Nullable Throwable failure;

	SimThread(SimWorld world, String actor, String name) {
		this.world = world;
		this.actor = actor;
		this.name = name;
	}

	/**
	 * Return the simulated thread the caller runs on, or {@code null} on the simulator's own.
	 */
	static @Nullable SimThread current() {
		return current.get();
	}

	String name() {
		return this.name;
	}

	/**
	 * Start the thread with the turn: it runs until it first waits or ends. Called by the
	 * simulator, in an event of the instance.
	 */
	void start(Runnable body) {
		Thread thread = new Thread(() -> {
			current.set(this);
			this.turn.acquireUninterruptibly();
			try {
				if (!this.stopping) {
					body.run();
				}
			}
			catch (Stop ex) {
				// Stopped at the end of the run.
			}
			catch (Throwable ex) {
				this.failure = ex;
			}
			finally {
				this.ended = true;
				this.back.release();
			}
		}, this.name);
		thread.setDaemon(true);
		this.thread = thread;
		thread.start();
		runTurn();
	}

	boolean isEnded() {
		return this.ended;
	}

	/**
	 * Interrupt the thread, as another thread of the instance would: a wait in progress ends
	 * with {@link InterruptedException}.
	 */
	void interrupt() {
		Thread thread = this.thread;
		if (thread == null || this.ended) {
			return;
		}
		thread.interrupt();
		if (this.waiting) {
			wakeLater(this.waits);
		}
	}

	/**
	 * Wake the thread soon if it waits, as an interrupt wakes a blocked thread: a wait that was
	 * interrupted then ends with {@link InterruptedException}, another goes on waiting. (Its
	 * interrupt status cannot be read from outside while it is parked: the park clears it until
	 * the thread runs again.)
	 */
	void wakeUp() {
		if (this.waiting) {
			wakeLater(this.waits);
		}
	}

	/**
	 * End the thread wherever it waits: its wait throws an error that unwinds it. Called by the
	 * simulator once the run is over.
	 */
	void stop() {
		if (this.thread == null || this.ended) {
			return;
		}
		this.stopping = true;
		runTurn();
	}

	/**
	 * Wait on this thread for an answer, on the simulated clock.
	 * @see dev.zklock.zookeeper.ZooKeeperPort#await
	 */
	<T> T await(CompletableFuture<T> answer, long nanos)
			throws InterruptedException, ExecutionException, TimeoutException {
		long deadline = (nanos > Long.MAX_VALUE - this.world.now()) ? Long.MAX_VALUE : this.world.now() + nanos;
		while (true) {
			if (answer.isDone()) {
				return answer.get();
			}
			if (Thread.interrupted()) {
				throw new InterruptedException();
			}
			if (this.world.now() >= deadline) {
				throw new TimeoutException();
			}
			long wait = ++this.waits;
			answer.whenComplete((value, ex) -> wakeLater(wait));
			SimWorld.Event timer = (deadline != Long.MAX_VALUE)
					? this.world.at(this.actor, deadline, this.name + "'s wait times out", () -> wake(wait)) : null;
			park();
			if (timer != null) {
				timer.cancel();
			}
		}
	}

	/**
	 * Let simulated time pass on this thread: a call's work.
	 */
	void sleep(long nanos) {
		long wait = ++this.waits;
		this.world.schedule(this.actor, nanos, this.name + " wakes", () -> wake(wait));
		park();
	}

	private void park() {
		if (this.stopping) {
			throw new Stop();
		}
		this.waiting = true;
		this.back.release();
		this.turn.acquireUninterruptibly();
		this.waiting = false;
		if (this.stopping) {
			throw new Stop();
		}
	}

	/**
	 * Wake the thread soon, if it still waits in the given wait (an answer may come on any
	 * thread, this one's included, or the simulator's).
	 */
	private void wakeLater(long wait) {
		if (this.waiting && this.waits == wait) {
			this.world.schedule(this.actor, this.world.between(0, WAKE_UP), this.name + " is woken", () -> wake(wait));
		}
	}

	private void wake(long wait) {
		if (this.waiting && this.waits == wait && !this.ended) {
			runTurn();
		}
	}

	/**
	 * Give the thread the turn, and wait until it waits again or ends.
	 */
	private void runTurn() {
		if (current.get() != null) {
			throw new IllegalStateException("A simulated thread can only be run by the simulator");
		}
		this.turn.release();
		boolean back;
		try {
			back = this.back.tryAcquire(STUCK_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		if (!back) {
			Thread thread = this.thread;
			StringBuilder stack = new StringBuilder();
			if (thread != null) {
				for (StackTraceElement element : thread.getStackTrace()) {
					stack.append("\n    at ").append(element);
				}
			}
			throw new Stuck(this.name + " blocked outside the port's wait for " + STUCK_SECONDS + " s:" + stack);
		}
		Throwable failure = this.failure;
		if (failure != null) {
			this.failure = null;
			throw new Stuck(this.name + " failed: " + failure, failure);
		}
	}

	/**
	 * Run the world's next event due by a time; a simulated thread that blocked outside the
	 * port's wait, or failed, is reported as a broken promise of the run.
	 * @return {@code false} if no event is due by then, or a thread was reported
	 */
	static boolean stepBy(SimWorld world, long time, Consumer<String> stuck) {
		try {
			return world.stepBy(time);
		}
		catch (Stuck ex) {
			stuck.accept(ex.getMessage());
			return false;
		}
	}

	/**
	 * End every thread of a run, reporting one that cannot be ended.
	 */
	static void stopAll(List<SimThread> threads, Consumer<String> stuck) {
		for (SimThread thread : threads) {
			try {
				thread.stop();
			}
			catch (Stuck ex) {
				stuck.accept(ex.getMessage());
			}
		}
	}

	/**
	 * A simulated thread that blocked where the simulator cannot wake it, or failed.
	 */
	static final class Stuck extends RuntimeException {

		Stuck(String message) {
			super(message);
		}

		Stuck(String message, Throwable cause) {
			super(message, cause);
		}

	}

	/**
	 * Unwinds a thread stopped at the end of a run.
	 */
	private static final class Stop extends Error {

		Stop() {
			super(null, null, false, false);
		}

	}

}
