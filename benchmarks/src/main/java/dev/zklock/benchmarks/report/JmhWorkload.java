package dev.zklock.benchmarks.report;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import dev.zklock.benchmarks.library.Election;
import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.library.Subject;
import dev.zklock.benchmarks.workload.AsyncOneKeyBenchmark;
import dev.zklock.benchmarks.workload.DistinctKeysBenchmark;
import dev.zklock.benchmarks.workload.FirstUseBenchmark;
import dev.zklock.benchmarks.workload.GrantCount;
import dev.zklock.benchmarks.workload.KeptKeyTakenBenchmark;
import dev.zklock.benchmarks.workload.LeaderCheckBenchmark;
import dev.zklock.benchmarks.workload.OneKeyContendedBenchmark;
import dev.zklock.benchmarks.workload.OneKeyFencedBenchmark;
import dev.zklock.benchmarks.workload.SharedBenchmark;
import dev.zklock.benchmarks.workload.SkipIfLockedBenchmark;
import dev.zklock.benchmarks.workload.TwoProcessesBenchmark;
import dev.zklock.benchmarks.workload.TwoProcessesFencedBenchmark;
import dev.zklock.benchmarks.workload.UncontendedBenchmark;

/**
 * A workload measured with JMH: its number and title in the report, its benchmark class, and the
 * baseline its rows are compared with. A new workload is one more constant here; a new row of
 * an existing workload is one more {@code @Param} value of its benchmark class.
 */
enum JmhWorkload {

	UNCONTENDED("1", "Uncontended lock/unlock, one thread, one key", UncontendedBenchmark.class,
			Baseline.library(Library.CURATOR),
			"Each operation takes the lock, does nothing and releases it. zklock runs with three lock settings: the "
					+ "defaults (local handoff, which one thread alone never uses; nothing kept), `PER_CALL` (a node "
					+ "per call, the first version), and idle locks kept for 1 s (every call after the first reuses "
					+ "the kept node). Two rows are no lock but zklock's requests (a create, a read of the key's "
					+ "children sent behind it, a delete) in two shapes: every reply handed to the caller by "
					+ "ZooKeeper's event thread, as the core has them today, and the caller waiting on the read and "
					+ "the delete itself, as the floor waits on its requests."),

	FIRST_USE("1f", "First use of a key, one thread", FirstUseBenchmark.class, Baseline.library(Library.CURATOR),
			"Each operation locks a key never used before (by any JVM), so its key node must be created first."),

	KEPT_KEY_TAKEN("1k", "Another instance takes a key an idle instance keeps", KeptKeyTakenBenchmark.class,
			Baseline.sameLibraryWith("key", "free"),
			"Two zklock instances in one JVM, each with its own session: the keeper (the row's settings, idle locks "
					+ "kept) and the taker (defaults: nothing kept). Before each operation, outside its time, the "
					+ "keeper takes and releases a key and keeps it. The operation is one lock cycle of the taker: "
					+ "`kept`, on the key the keeper keeps (which gives it up when it sees the taker's node); "
					+ "`free`, on a key nobody holds, the baseline."),

	SKIP_IF_LOCKED("1s", "Scheduled job skipped where locked, one thread, one key", SkipIfLockedBenchmark.class,
			Baseline.library(Library.SHEDLOCK),
			"Each operation runs a job only if its lock is free, never waiting. `free`: nobody else holds the lock, "
					+ "the job runs every time; `held`: another session holds it, the job is skipped every time."),

	ONE_KEY("2", "One key, 8 and 32 threads in one JVM", OneKeyContendedBenchmark.class,
			Baseline.library(Library.CURATOR),
			"The threads share one client. An operation is one lock cycle including its wait in the queue; "
					+ "the lock is always wanted, so the time per handoff is one over the throughput."),

	ONE_KEY_FENCED("2t", "One key, 32 threads in one JVM, every holder asks its fencing token",
			OneKeyFencedBenchmark.class, Baseline.library(Library.CURATOR),
			"As workload 2, but every holder asks for its fencing token (`lock.fencingToken()`) before its work. "
					+ "Curator's `InterProcessMutex` has no token: its rows are the plain cycle, with one mutex shared "
					+ "by the 32 threads (the baseline of the table) and with a mutex per thread (the strongest use "
					+ "of Curator, the baseline of the fenced-lock goals). zklock's token is derived from its node's "
					+ "zxid and a local count, so a handed-off grant takes its token without a write."),

	ASYNC_ONE_KEY("2a", "One key, 32 callers at once in one JVM, asynchronous and blocking", AsyncOneKeyBenchmark.class,
			Baseline.sameLibraryWith("form", "sync"),
			"An operation is a batch of 32 calls on one key started together, ended when all have released the "
					+ "lock (throughput: batches per second; 32 calls each). `async`: one thread starts them with "
					+ "`executeAsync`, no thread waits; `sync`: 32 pooled threads each make a blocking `execute` call, "
					+ "the baseline. zklock with its defaults in both."),

	DISTINCT_KEYS("3", "Distinct keys, 8 and 32 threads in one JVM", DistinctKeysBenchmark.class,
			Baseline.library(Library.CURATOR),
			"The threads share one client; each locks a key of its own, the same key every cycle. The floor's row "
					+ "(a bare create and delete per cycle, the same writes) is what the server can do with them."),

	TWO_PROCESSES("4", "One key, two JVMs of 8 threads each", TwoProcessesBenchmark.class,
			Baseline.library(Library.CURATOR),
			"A second JVM runs the same loop with the same library for the whole trial. Throughput, p50 and p99 "
					+ "are the benchmark JVM's; `both JVMs` counts the grants of the two over the same measurement "
					+ "iterations (from just before the benchmark JVM's threads start to just after the last has "
					+ "finished its operation, so a little longer than JMH's iteration), and the shares say how they were split (a lock that starved one JVM would "
					+ "show a lopsided share). The longest gap is the longest time either JVM went between two of "
					+ "its grants over those iterations: its threads always want the lock, so it is the longest "
					+ "wait of a JVM while the other had the key (with local handoff, the remote waiter's wait)."),

	TWO_PROCESSES_FENCED("4t", "One key, two JVMs of 8 threads each, every holder asks its fencing token",
			TwoProcessesFencedBenchmark.class, Baseline.library(Library.CURATOR_PER_THREAD),
			"As workload 4, but every holder in both JVMs asks for its fencing token (`lock.fencingToken()`) before "
					+ "its work. Curator's `InterProcessMutex` has no token: its rows are the plain cycle, with one "
					+ "mutex per key shared by each JVM's threads and with a mutex per thread (the strongest use of "
					+ "Curator, the baseline)."),

	SHARED("5", "SHARED, 8 threads in one JVM, one key", SharedBenchmark.class, Baseline.library(Library.CURATOR),
			"Curator: `InterProcessReadWriteLock.readLock()`; zklock: `LockMode.SHARED`. Readers hold the lock "
					+ "together, so they should not serialise."),

	LEADER_CHECK("6", "The leader-only check, on the leader and on a non-leader", LeaderCheckBenchmark.class,
			Baseline.library(Election.CURATOR),
			"One thread calls leader-only code of one of two participants in this JVM (mode `AverageTime`), "
					+ "compared like with like. `inline`: the check written in the caller, Curator's "
					+ "`if (latch.hasLeadership())` against zklock's `if (zkLeadership.isLeader(group))`. "
					+ "`proxied`: a call through a Spring CGLIB proxy, a hand-written interceptor checking "
					+ "`hasLeadership()` against the `@ZkLeader` bean method. No ZooKeeper traffic.");

	private final String number;

	private final String title;

	private final Class<?> benchmark;

	private final Baseline baseline;

	private final List<? extends Subject.Described> libraries;

	private final String note;

	JmhWorkload(String number, String title, Class<?> benchmark, Baseline baseline, String note) {
		this.number = number;
		this.title = title;
		this.benchmark = benchmark;
		this.baseline = baseline;
		this.libraries = (benchmark == LeaderCheckBenchmark.class) ? Arrays.asList(Election.values())
				: Arrays.asList(Library.values());
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
	 * Return what the rows are compared with.
	 */
	Baseline baseline() {
		return this.baseline;
	}

	/**
	 * Return whether the time per handoff of one lock is worth showing.
	 */
	boolean showsHandoffs() {
		return this == ONE_KEY || this == ONE_KEY_FENCED;
	}

	/**
	 * Return whether the grants of a second JVM are counted.
	 */
	boolean countsGrants() {
		return this == TWO_PROCESSES || this == TWO_PROCESSES_FENCED;
	}

	/**
	 * Return the grants of the two JVMs counted by this workload.
	 */
	List<GrantCount> grants(List<GrantCount> counts) {
		return counts.stream().filter((count) -> count.benchmark().equals(this.benchmark.getName())).toList();
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
		Subject.Described described = subject(library);
		return described.isZkLock() ? "**" + described.label() + "**" : described.label();
	}

	/**
	 * Return the name of a library of this workload, plain.
	 */
	String plainLabel(String library) {
		return subject(library).label();
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
				.thenComparingInt((measurement) -> this.libraries.indexOf(subject(measurement.library()))))
			.toList();
	}

	private Subject.Described subject(String library) {
		return Subject.find(this.libraries.toArray(Subject.Described[]::new), library);
	}

}
