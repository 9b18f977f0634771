package dev.zklock.leader;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.zklock.LeadershipEvent;
import dev.zklock.LeadershipGrantedEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Watches that instances never both believe they lead a group, in two ways: by sampling
 * {@code isLeader} in a loop (an overlap counts when two samples in a row see it, so that a
 * sampler descheduled between two reads reports no false overlap), and, afterwards, from the
 * timestamps of the leadership events, which are taken at the moment of each change.
 */
final class LeaderMonitor implements AutoCloseable {

	private final String group;

	private final List<Instance> instances = new CopyOnWriteArrayList<>();

	private final List<String> overlaps = new CopyOnWriteArrayList<>();

	private final Thread sampler;

	private volatile boolean running = true;

	private volatile long samples;

	LeaderMonitor(String group, Instance... instances) {
		this.group = group;
		this.instances.addAll(List.of(instances));
		this.sampler = new Thread(this::sample, "leader-monitor");
		this.sampler.setDaemon(true);
		this.sampler.start();
	}

	void add(Instance instance) {
		this.instances.add(instance);
	}

	private void sample() {
		List<Instance> previous = List.of();
		while (this.running) {
			List<Instance> leaders = leaders();
			if (leaders.size() > 1 && leaders.equals(previous)) {
				this.overlaps.add(System.currentTimeMillis() + ": " + leaders + " all lead group " + this.group);
			}
			previous = leaders;
			this.samples++;
			LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
		}
	}

	private List<Instance> leaders() {
		List<Instance> leaders = new ArrayList<>();
		for (Instance instance : this.instances) {
			if (instance.isLeader(this.group)) {
				leaders.add(instance);
			}
		}
		return leaders;
	}

	/**
	 * Assert that no overlap was seen, by sampling or in the events published so far.
	 */
	void assertNoOverlap() {
		assertThat(this.samples).as("samples taken").isPositive();
		assertThat(this.overlaps).as("instances that led together").isEmpty();
		assertThat(eventOverlaps()).as("leadership terms that overlapped").isEmpty();
	}

	private List<String> eventOverlaps() {
		List<Term> terms = new ArrayList<>();
		for (Instance instance : this.instances) {
			Term open = null;
			for (LeadershipEvent event : instance.events(this.group)) {
				if (event instanceof LeadershipGrantedEvent) {
					open = new Term(instance, event.getEpoch(), event.getTimestamp(), Long.MAX_VALUE);
				}
				else if (open != null) {
					terms.add(new Term(instance, open.epoch, open.start, event.getTimestamp()));
					open = null;
				}
			}
			if (open != null) {
				terms.add(open);
			}
		}
		List<String> overlaps = new ArrayList<>();
		for (Term a : terms) {
			for (Term b : terms) {
				if (a.instance != b.instance && a.start <= b.start && b.start < a.end) {
					overlaps.add(a + " overlaps " + b);
				}
			}
		}
		return overlaps;
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.sampler.join(TimeUnit.SECONDS.toMillis(5));
	}

	private record Term(Instance instance, long epoch, long start, long end) {

		@Override
		public String toString() {
			return this.instance + " (epoch " + this.epoch + ", " + this.start + ".."
					+ ((this.end != Long.MAX_VALUE) ? this.end : "") + ")";
		}

	}

}
