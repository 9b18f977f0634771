package dev.zklock.benchmarks.report;

import java.util.Comparator;
import java.util.List;

import dev.zklock.benchmarks.library.Election;
import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.workload.DistinctKeysBenchmark;
import dev.zklock.benchmarks.workload.LeaderCheckBenchmark;
import dev.zklock.benchmarks.workload.OneKeyContendedBenchmark;
import dev.zklock.benchmarks.workload.SharedBenchmark;
import dev.zklock.benchmarks.workload.SkipIfLockedBenchmark;
import dev.zklock.benchmarks.workload.TwoProcessesBenchmark;
import dev.zklock.benchmarks.workload.UncontendedBenchmark;

/**
 * A workload measured with JMH: its number and title in the issue, its benchmark class, and the
 * baseline its figures are compared with.
 */
enum JmhWorkload {

	UNCONTENDED("1", "Uncontended lock/unlock, one thread, one key", UncontendedBenchmark.class, Library.CURATOR,
			"Each operation takes the lock, does nothing and releases it."),

	SKIP_IF_LOCKED("1s", "Scheduled job skipped where locked, one thread, one key", SkipIfLockedBenchmark.class,
			Library.SHEDLOCK,
			"Each operation runs a job only if its lock is free, never waiting. `free`: nobody else holds the lock, "
					+ "the job runs every time; `held`: another session holds it, the job is skipped every time."),

	ONE_KEY("2", "One key, 8 and 32 threads in one JVM", OneKeyContendedBenchmark.class, Library.CURATOR,
			"The threads share one client. An operation is one lock cycle including its wait in the queue; "
					+ "the lock is always wanted, so the time per handoff is one over the throughput."),

	DISTINCT_KEYS("3", "Distinct keys, 8 threads in one JVM", DistinctKeysBenchmark.class, Library.CURATOR,
			"The threads share one client; each locks a key of its own."),

	TWO_PROCESSES("4", "One key, two JVMs of 8 threads each", TwoProcessesBenchmark.class, Library.CURATOR,
			"A second JVM runs the same loop with the same library for the whole trial; the figures are those of "
					+ "the benchmark JVM, which gets about half of the handoffs."),

	SHARED("5", "SHARED, 8 threads in one JVM, one key", SharedBenchmark.class, Library.CURATOR,
			"Curator: `InterProcessReadWriteLock.readLock()`; zklock: `LockMode.SHARED`. Readers hold the lock "
					+ "together, so they should not serialise."),

	LEADER_CHECK("6", "The leader-only check, on the leader and on a non-leader", LeaderCheckBenchmark.class,
			Election.CURATOR,
			"One thread calls leader-only code of one of two participants in this JVM (mode `AverageTime`). "
					+ "Curator: `if (latch.hasLeadership())` around the work; zklock: the call of a `@ZkLeader` "
					+ "bean method, through its proxy. No ZooKeeper traffic.");

	private final String number;

	private final String title;

	private final Class<?> benchmark;

	private final String baseline;

	private final boolean elections;

	private final String note;

	JmhWorkload(String number, String title, Class<?> benchmark, Library baseline, String note) {
		this(number, title, benchmark, baseline.id(), false, note);
	}

	JmhWorkload(String number, String title, Class<?> benchmark, Election baseline, String note) {
		this(number, title, benchmark, baseline.id(), true, note);
	}

	JmhWorkload(String number, String title, Class<?> benchmark, String baseline, boolean elections, String note) {
		this.number = number;
		this.title = title;
		this.benchmark = benchmark;
		this.baseline = baseline;
		this.elections = elections;
		this.note = note;
	}

	String number() {
		return this.number;
	}

	String title() {
		return this.title;
	}

	String note() {
		return this.note;
	}

	/**
	 * Return the id of the library the others are compared with.
	 */
	String baseline() {
		return this.baseline;
	}

	/**
	 * Return whether the time per handoff of one lock is worth showing.
	 */
	boolean showsHandoffs() {
		return this == ONE_KEY;
	}

	/**
	 * Return whether the figures are average times of calls rather than sampled lock cycles.
	 */
	boolean measuresCalls() {
		return this == LEADER_CHECK;
	}

	/**
	 * Return the name of a library of this workload as the report shows it, zklock's in bold.
	 */
	String label(String library) {
		boolean zklock = this.elections ? Election.of(library).isZkLock() : Library.of(library).isZkLock();
		String label = this.elections ? Election.of(library).label() : Library.of(library).label();
		return zklock ? "**" + label + "**" : label;
	}

	/**
	 * Return the measurements of this workload, ordered by thread count, parameters and
	 * library.
	 */
	List<Measurement> select(List<Measurement> measurements) {
		return measurements.stream()
			.filter((measurement) -> measurement.benchmark().equals(this.benchmark.getName()))
			.sorted(Comparator.comparingInt(Measurement::threads)
				.thenComparing((measurement) -> measurement.params().toString())
				.thenComparingInt((measurement) -> order(measurement.library())))
			.toList();
	}

	private int order(String library) {
		return this.elections ? Election.of(library).ordinal() : Library.of(library).ordinal();
	}

}
