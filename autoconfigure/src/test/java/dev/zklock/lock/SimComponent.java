package dev.zklock.lock;

import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * A leader-only component of the simulator: running from the moment its {@code start()} is
 * entered until its {@code stop()} returns, each of which may take simulated time (a stop that
 * drains a listener container's work, say), during which its thread is busy. Its start and its
 * stop may fail, as the run's {@link Failures} decide: a start that throws leaves the component
 * half started (running, until a stop), and a stop that throws does so once its work is done.
 */
final class SimComponent implements SmartLifecycle {

	private final SimWorld world;

	private final String actor;

	private final String name;

	private final int phase;

	private final long startNanos;

	private final long stopNanos;

	private final SimComponentThread thread;

	private final Failures failures;

	private boolean running;

	SimComponent(SimWorld world, String actor, String name, int phase, long startNanos, long stopNanos,
			SimComponentThread thread, Failures failures) {
		this.world = world;
		this.actor = actor;
		this.name = name;
		this.phase = phase;
		this.startNanos = startNanos;
		this.stopNanos = stopNanos;
		this.thread = thread;
		this.failures = failures;
	}

	long startNanos() {
		return this.startNanos;
	}

	long stopNanos() {
		return this.stopNanos;
	}

	@Override
	public void start() {
		this.running = true;
		this.thread.occupy(this.startNanos);
		fail(this.failures.start(this));
	}

	@Override
	public void stop() {
		long stopped = this.thread.occupy(this.stopNanos);
		if (stopped <= this.world.now()) {
			this.running = false;
		}
		else {
			// It returns once the work its task did before it, and its own, are done.
			this.world.at(this.actor, stopped, this.name + " stopped", () -> this.running = false);
		}
		fail(this.failures.stop(this));
	}

	/**
	 * Throw what a start or stop fails with, a checked exception too (as Kotlin code may
	 * throw one from a method that does not declare it).
	 */
	@SuppressWarnings("unchecked")
	private static <T extends Throwable> void fail(@Nullable Throwable failure) throws T {
		if (failure != null) {
			throw (T) failure;
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return this.phase;
	}

	@Override
	public String toString() {
		return this.name;
	}

	/**
	 * Decides which starts and stops fail, and with what.
	 */
	interface Failures {

		Failures NONE = new Failures() {

			@Override
			public @Nullable Throwable start(SimComponent component) {
				return null;
			}

			@Override
			public @Nullable Throwable stop(SimComponent component) {
				return null;
			}

		};

		/**
		 * @return what the component's start throws once it has begun, or {@code null}
		 */
		@Nullable Throwable start(SimComponent component);

		/**
		 * @return what the component's stop throws once it has ended, or {@code null}
		 */
		@Nullable Throwable stop(SimComponent component);

	}

}
