package dev.zklock.benchmarks.report;

import java.util.List;

import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.workload.DistinctKeysBenchmark;
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
			false, "Each operation takes the lock, does nothing and releases it."),

	SKIP_IF_LOCKED("1s", "Scheduled job skipped where locked, one thread, one key", SkipIfLockedBenchmark.class,
			Library.SHEDLOCK, false,
			"Each operation runs a job only if its lock is free, never waiting. `free`: nobody else holds the lock, "
					+ "the job runs every time; `held`: another session holds it, the job is skipped every time."),

	ONE_KEY("2", "One key, 8 and 32 threads in one JVM", OneKeyContendedBenchmark.class, Library.CURATOR, true,
			"The threads share one client. An operation is one lock cycle including its wait in the queue; "
					+ "the lock is always wanted, so the time per handoff is one over the throughput."),

	DISTINCT_KEYS("3", "Distinct keys, 8 threads in one JVM", DistinctKeysBenchmark.class, Library.CURATOR, false,
			"The threads share one client; each locks a key of its own."),

	TWO_PROCESSES("4", "One key, two JVMs of 8 threads each", TwoProcessesBenchmark.class, Library.CURATOR, false,
			"A second JVM runs the same loop with the same library for the whole trial; the figures are those of "
					+ "the benchmark JVM, which gets about half of the handoffs."),

	SHARED("5", "SHARED, 8 threads in one JVM, one key", SharedBenchmark.class, Library.CURATOR, false,
			"Curator: `InterProcessReadWriteLock.readLock()`; zklock: `LockMode.SHARED`. Readers hold the lock "
					+ "together, so they should not serialise.");

	private final String number;

	private final String title;

	private final Class<?> benchmark;

	private final Library baseline;

	private final boolean handoffs;

	private final String note;

	JmhWorkload(String number, String title, Class<?> benchmark, Library baseline, boolean handoffs, String note) {
		this.number = number;
		this.title = title;
		this.benchmark = benchmark;
		this.baseline = baseline;
		this.handoffs = handoffs;
		this.note = note;
	}

	String number() {
		return this.number;
	}

	String title() {
		return this.title;
	}

	Library baseline() {
		return this.baseline;
	}

	boolean showsHandoffs() {
		return this.handoffs;
	}

	String note() {
		return this.note;
	}

	/**
	 * Return the measurements of this workload, ordered by thread count, parameters and
	 * library.
	 */
	List<Measurement> select(List<Measurement> measurements) {
		return measurements.stream()
			.filter((measurement) -> measurement.benchmark().equals(this.benchmark.getName()))
			.sorted(java.util.Comparator.comparingInt(Measurement::threads)
				.thenComparing((measurement) -> measurement.params().toString())
				.thenComparing(Measurement::library))
			.toList();
	}

}
