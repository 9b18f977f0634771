package dev.zklock.lock;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The simulated world: one thread, one seeded random source, a simulated clock, and a queue of
 * events in time order. Every actor (each instance's event thread, timers and callers, the
 * server) is a sequence of events here; an instance that is paused has its events postponed to
 * the end of its pause, in their order. The same seed gives the same run, step for step.
 */
final class SimWorld {

	static final String SERVER = "server";

	private final SplittableRandom random;

	private final PriorityQueue<Event> queue = new PriorityQueue<>();

	private final Map<String, Long> pausedUntil = new HashMap<>();

	private final ArrayDeque<Object[]> trace = new ArrayDeque<>();

	private final int traceSize;

	private long now;

	private long sequence;

	private long steps;

	SimWorld(long seed, int traceSize) {
		this.random = new SplittableRandom(seed);
		this.traceSize = traceSize;
	}

	long now() {
		return this.now;
	}

	int traceSize() {
		return this.traceSize;
	}

	long steps() {
		return this.steps;
	}

	SplittableRandom random() {
		return this.random;
	}

	/**
	 * Return a random time between the bounds, in nanoseconds.
	 */
	long between(long minNanos, long maxNanos) {
		return (maxNanos <= minNanos) ? minNanos : this.random.nextLong(minNanos, maxNanos + 1);
	}

	boolean chance(double probability) {
		return this.random.nextDouble() < probability;
	}

	/**
	 * Run a task of an actor after a delay.
	 * @return the event, which may be cancelled
	 */
	Event schedule(String actor, long delayNanos, String what, Runnable task) {
		Event event = new Event(this.now + Math.max(0, delayNanos), this.sequence++, actor, what, task);
		this.queue.add(event);
		return event;
	}

	/**
	 * Run a task at an absolute time (not before now).
	 */
	Event at(String actor, long time, String what, Runnable task) {
		return schedule(actor, time - this.now, what, task);
	}

	/**
	 * Freeze every event of an actor until the given time.
	 */
	void pause(String actor, long until) {
		this.pausedUntil.merge(actor, until, Math::max);
	}

	boolean isPaused(String actor) {
		Long until = this.pausedUntil.get(actor);
		return until != null && until > this.now;
	}

	/**
	 * Return when the last pause of an actor ends (or ended), {@code -1} if it never paused.
	 */
	long pausedUntil(String actor) {
		return this.pausedUntil.getOrDefault(actor, -1L);
	}

	/**
	 * Run the next event.
	 * @return {@code false} if there is none
	 */
	boolean step() {
		return stepBy(Long.MAX_VALUE);
	}

	/**
	 * Run the next event if it is due by the given time; else let the clock reach that time.
	 * @return {@code false} if there is none due by then
	 */
	boolean stepBy(long time) {
		while (true) {
			Event event = this.queue.poll();
			if (event == null) {
				return false;
			}
			if (event.time > time) {
				this.queue.add(event);
				this.now = Math.max(this.now, time);
				return false;
			}
			if (event.cancelled) {
				continue;
			}
			this.now = Math.max(this.now, event.time);
			Long until = this.pausedUntil.get(event.actor);
			if (until != null && until > this.now) {
				// Frozen with its process: run it, in order, when the pause ends.
				Event later = new Event(until, event.sequence, event.actor, event.what, event.task);
				this.queue.add(later);
				event.movedTo = later;
				continue;
			}
			this.steps++;
			if (this.traceSize > 0) {
				noteStep(event.actor, event.what);
			}
			event.task.run();
			return true;
		}
	}

	/**
	 * Run events until the given time, or until there are none.
	 */
	void runUntil(long time) {
		while (!this.queue.isEmpty() && nextTime() <= time) {
			step();
		}
		this.now = Math.max(this.now, time);
	}

	private long nextTime() {
		Event next = this.queue.peek();
		return (next != null) ? next.time : Long.MAX_VALUE;
	}

	void note(String line) {
		noteStep(null, line);
	}

	private void noteStep(String actor, String what) {
		if (this.traceSize == 0) {
			return;
		}
		if (this.trace.size() == this.traceSize) {
			this.trace.poll();
		}
		this.trace.add(new Object[] { this.now, actor, what });
	}

	String trace() {
		StringBuilder lines = new StringBuilder();
		for (Object[] entry : this.trace) {
			lines.append(String.format("%12.3f ms  %s%s%n", ((Long) entry[0]) / 1e6,
					(entry[1] != null) ? entry[1] + ": " : "", entry[2]));
		}
		return lines.toString();
	}

	static long millis(double millis) {
		return (long) (millis * TimeUnit.MILLISECONDS.toNanos(1));
	}

	/**
	 * A task of one actor at one simulated time.
	 */
	static final class Event implements Comparable<Event> {

		private final long time;

		private final long sequence;

		private final String actor;

		private final String what;

		private final Runnable task;

		private boolean cancelled;

		private Event movedTo;

		Event(long time, long sequence, String actor, String what, Runnable task) {
			this.time = time;
			this.sequence = sequence;
			this.actor = actor;
			this.what = what;
			this.task = task;
		}

		void cancel() {
			this.cancelled = true;
			if (this.movedTo != null) {
				this.movedTo.cancel();
			}
		}

		@Override
		public int compareTo(Event other) {
			int byTime = Long.compare(this.time, other.time);
			return (byTime != 0) ? byTime : Long.compare(this.sequence, other.sequence);
		}

	}

}
