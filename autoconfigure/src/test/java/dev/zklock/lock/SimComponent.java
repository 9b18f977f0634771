package dev.zklock.lock;

import org.springframework.context.SmartLifecycle;

/**
 * A leader-only component of the simulator: running from the moment its {@code start()} is
 * entered until its {@code stop()} returns, each of which may take simulated time (a stop that
 * drains a listener container's work, say), during which its thread is busy.
 */
final class SimComponent implements SmartLifecycle {

	private final SimWorld world;

	private final String actor;

	private final String name;

	private final int phase;

	private final long startNanos;

	private final long stopNanos;

	private final SimComponentThread thread;

	private boolean running;

	SimComponent(SimWorld world, String actor, String name, int phase, long startNanos, long stopNanos,
			SimComponentThread thread) {
		this.world = world;
		this.actor = actor;
		this.name = name;
		this.phase = phase;
		this.startNanos = startNanos;
		this.stopNanos = stopNanos;
		this.thread = thread;
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
	}

	@Override
	public void stop() {
		this.thread.occupy(this.stopNanos);
		if (this.stopNanos == 0) {
			this.running = false;
			return;
		}
		this.world.schedule(this.actor, this.stopNanos, this.name + " stopped", () -> this.running = false);
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

}
