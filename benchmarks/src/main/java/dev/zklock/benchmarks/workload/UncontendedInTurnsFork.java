package dev.zklock.benchmarks.workload;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Phaser;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import dev.zklock.benchmarks.library.CuratorClients;
import dev.zklock.benchmarks.library.ExclusiveLocks;
import dev.zklock.benchmarks.library.Library;

/**
 * One fork of workload 1i ({@link UncontendedInTurns}), in a JVM of its own: libraries, each on
 * a client of its own, take turns of equal length, first to warm up, then in measured rounds (a
 * turn of each); it prints each side's totals with the median of its rounds' throughput over the
 * first library's, then {@value #DONE}. In a turn one thread makes calls on one key, one after
 * the other; or, given more threads, each library's own threads make calls on a key each.
 * <p>
 * Arguments: the connect string, the warmup in milliseconds, the measured rounds, the length of
 * a turn in milliseconds, the libraries' ids separated by commas (the first is the baseline),
 * the threads.
 */
public final class UncontendedInTurnsFork {

	/** The start of the line that gives one side's totals. */
	static final String SIDE = "side ";

	/** The start of the line that gives the CPU time of each Java thread in one side's turns. */
	static final String THREADS_LINE = "threads ";

	/** The last line of a fork that measured. */
	static final String DONE = "done";

	private static final String KEY = "uncontended";

	private static final Runnable NO_WORK = () -> {
	};

	/** The names Linux gives the JIT compiler's threads (15 characters at most). */
	private static final String[] COMPILER_THREADS = { "C1 CompilerThre", "C2 CompilerThre" };

	private static final Path TASKS = Path.of("/proc/self/task");

	private UncontendedInTurnsFork() {
	}

	public static void main(String[] args) throws Exception {
		String connectString = args[0];
		Duration warmup = Duration.ofMillis(Long.parseLong(args[1]));
		int rounds = Integer.parseInt(args[2]);
		Duration turn = Duration.ofMillis(Long.parseLong(args[3]));
		List<Library> libraries = Arrays.stream(args[4].split(",")).map(Library::of).toList();
		int threads = Integer.parseInt(args[5]);
		List<AutoCloseable> opened = new ArrayList<>();
		try {
			List<Side> sides = new ArrayList<>();
			for (Library library : libraries) {
				CuratorFramework client = CuratorClients.connect(connectString);
				opened.add(client);
				ExclusiveLocks locks = library.exclusive(client);
				opened.add(locks);
				sides.add(new Side(library.id(), locks, threads));
			}
			long warmupEnd = System.nanoTime() + warmup.toNanos();
			do {
				for (Side side : sides) {
					side.turn(turn, false);
				}
			}
			while (System.nanoTime() - warmupEnd < 0);
			double[][] ratios = new double[sides.size()][rounds];
			double[] perSecond = new double[sides.size()];
			for (int round = 0; round < rounds; round++) {
				// Each round starts one side further along: every side takes every place of a
				// round equally often, so that a drift of the machine within a round weighs on
				// all sides alike.
				for (int place = 0; place < sides.size(); place++) {
					int side = (round + place) % sides.size();
					perSecond[side] = sides.get(side).turn(turn, true);
				}
				for (int side = 0; side < sides.size(); side++) {
					ratios[side][round] = perSecond[side] / perSecond[0];
				}
			}
			for (int side = 0; side < sides.size(); side++) {
				Arrays.sort(ratios[side]);
				System.out.println(sides.get(side).totals(ratios[side]));
			}
			for (Side side : sides) {
				System.out.println(side.threads());
			}
			System.out.println(DONE);
		}
		finally {
			for (int i = opened.size() - 1; i >= 0; i--) {
				opened.get(i).close();
			}
		}
		System.exit(0);
	}

	private static double median(double[] sorted) {
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	/**
	 * The CPU time, in nanoseconds, that the JIT compiler's threads of this JVM have used, from
	 * {@code /proc/self/task/<thread>/schedstat}; -1 where the system does not tell it.
	 */
	static long compilerNanos() {
		if (!Files.isDirectory(TASKS)) {
			return -1;
		}
		long total = 0;
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
			for (Path task : tasks) {
				try {
					String name = Files.readString(task.resolve("comm")).strip();
					if (name.startsWith(COMPILER_THREADS[0]) || name.startsWith(COMPILER_THREADS[1])) {
						String schedstat = Files.readString(task.resolve("schedstat"));
						total += Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
					}
				}
				catch (IOException ex) {
					// The thread ended while it was read: its time is no longer counted anywhere.
				}
			}
		}
		catch (IOException ex) {
			return -1;
		}
		return total;
	}

	/**
	 * Make calls on a key, one after the other, until the end (on {@link System#nanoTime()}'s
	 * clock), each call's time recorded where there are times to record it in.
	 * @return the calls made
	 */
	private static int makeCalls(ExclusiveLocks locks, String key, long end, @Nullable CallTimes times)
			throws Exception {
		int calls = 0;
		long now = System.nanoTime();
		while (now - end < 0) {
			long callStart = now;
			locks.runExclusive(key, NO_WORK);
			now = System.nanoTime();
			if (times != null) {
				times.add(now - callStart);
			}
			calls++;
		}
		return calls;
	}

	/**
	 * The times of calls, in nanoseconds.
	 */
	private static final class CallTimes {

		private long[] nanos;

		private int count;

		CallTimes(int capacity) {
			this.nanos = new long[capacity];
		}

		void add(long callNanos) {
			if (this.count == this.nanos.length) {
				this.nanos = Arrays.copyOf(this.nanos, this.count * 2);
			}
			this.nanos[this.count++] = callNanos;
		}

		void addAll(CallTimes other) {
			for (int i = 0; i < other.count; i++) {
				add(other.nanos[i]);
			}
		}

		long[] sorted() {
			long[] sorted = Arrays.copyOf(this.nanos, this.count);
			Arrays.sort(sorted);
			return sorted;
		}

	}

	/**
	 * One library's side of the turns: its totals over the measured turns, and the time of each
	 * of its measured calls.
	 */
	private static final class Side {

		private static final com.sun.management.OperatingSystemMXBean SYSTEM =
				(com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

		private static final com.sun.management.ThreadMXBean THREADS =
				(com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

		private final String library;

		private final ExclusiveLocks locks;

		private final CallTimes times = new CallTimes(1 << 16);

		private long calls;

		private long nanos;

		private long cpuNanos;

		private long compilerNanos;

		private long bytes;

		private final @Nullable Workers workers;

		private final Map<Long, Long> threadNanos = new HashMap<>();

		Side(String library, ExclusiveLocks locks, int threads) {
			this.library = library;
			this.locks = locks;
			this.workers = (threads > 1) ? new Workers(library, locks, threads) : null;
		}

		/**
		 * Make calls for the length of a turn: on this thread, one after the other, or on the
		 * side's own threads, a key each.
		 * @return the calls per second of the turn
		 */
		double turn(Duration length, boolean measured) throws Exception {
			// The windows nest so that reading the compiler's threads (a walk of /proc) falls in
			// neither the CPU nor the bytes counted for the calls.
			long compilerBefore = compilerNanos();
			long[] threadIds = measured ? THREADS.getAllThreadIds() : new long[0];
			long[] threadsBefore = THREADS.getThreadCpuTime(threadIds);
			long bytesBefore = allocatedBytes();
			long cpuBefore = SYSTEM.getProcessCpuTime();
			long start = System.nanoTime();
			long end = start + length.toNanos();
			int calls = (this.workers != null) ? this.workers.turn(end, measured)
					: makeCalls(this.locks, KEY, end, measured ? this.times : null);
			long elapsed = System.nanoTime() - start;
			if (measured) {
				this.calls += calls;
				this.cpuNanos += SYSTEM.getProcessCpuTime() - cpuBefore;
				this.bytes += allocatedBytes() - bytesBefore;
				long[] threadsAfter = THREADS.getThreadCpuTime(threadIds);
				for (int i = 0; i < threadIds.length; i++) {
					if (threadsBefore[i] >= 0 && threadsAfter[i] >= 0) {
						this.threadNanos.merge(threadIds[i], threadsAfter[i] - threadsBefore[i], Long::sum);
					}
				}
				long compilerAfter = compilerNanos();
				this.compilerNanos = (compilerBefore < 0 || compilerAfter < 0 || this.compilerNanos < 0) ? -1
						: this.compilerNanos + compilerAfter - compilerBefore;
				this.nanos += elapsed;
			}
			return calls * 1e9 / elapsed;
		}

		private static long allocatedBytes() {
			long total = 0;
			for (long bytes : THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds())) {
				if (bytes > 0) {
					total += bytes;
				}
			}
			return total;
		}

		/**
		 * The line of this side's totals: the library, calls, nanoseconds, process CPU
		 * nanoseconds, the compiler's CPU nanoseconds, bytes allocated, p50 and p99 of a call in
		 * nanoseconds, and the median, least and greatest of its rounds' throughput over the
		 * first side's.
		 */
		String totals(double[] sortedRatios) {
			long[] sorted = ((this.workers != null) ? this.workers.times() : this.times).sorted();
			return SIDE + this.library + " " + this.calls + " " + this.nanos + " " + this.cpuNanos + " "
					+ this.compilerNanos + " " + this.bytes + " " + percentile(sorted, 0.5) + " "
					+ percentile(sorted, 0.99) + String.format(Locale.ROOT, " %.6f %.6f %.6f", median(sortedRatios),
							sortedRatios[0], sortedRatios[sortedRatios.length - 1]);
		}

		/**
		 * The line of the CPU time the busiest Java threads used in this side's turns, per call,
		 * in nanoseconds (for finding where a side's CPU goes; the report does not read it).
		 */
		String threads() {
			StringBuilder line = new StringBuilder(THREADS_LINE).append(this.library);
			this.threadNanos.entrySet()
				.stream()
				.filter((entry) -> entry.getValue() >= this.calls * 1000L)
				.sorted(Map.Entry.<Long, Long>comparingByValue().reversed())
				.limit(8)
				.forEach((entry) -> {
					ThreadInfo info = THREADS.getThreadInfo(entry.getKey());
					String name = (info != null) ? info.getThreadName() : "ended";
					line.append(" [").append(name).append('#').append(entry.getKey()).append("] ")
						.append(entry.getValue() / this.calls);
				});
			return line.toString();
		}

		private static long percentile(long[] sorted, double fraction) {
			if (sorted.length == 0) {
				return 0;
			}
			return sorted[Math.min(sorted.length - 1, (int) Math.ceil(fraction * sorted.length) - 1)];
		}

	}

	/**
	 * A side's own threads, each making calls on a key of its own in every turn, started once so
	 * that the bytes they allocate stay counted.
	 */
	private static final class Workers {

		private final Phaser turns;

		private final Worker[] workers;

		private volatile long end;

		private volatile boolean measured;

		Workers(String library, ExclusiveLocks locks, int threads) {
			this.turns = new Phaser(threads + 1);
			this.workers = new Worker[threads];
			for (int i = 0; i < threads; i++) {
				this.workers[i] = new Worker(locks, "distinct-" + i);
				Thread thread = new Thread(this.workers[i], library + "-" + i);
				thread.setDaemon(true);
				thread.start();
			}
		}

		/**
		 * Let every thread make calls until the end of the turn.
		 * @return the calls of all threads
		 */
		int turn(long end, boolean measured) throws Exception {
			this.end = end;
			this.measured = measured;
			this.turns.arriveAndAwaitAdvance();
			this.turns.arriveAndAwaitAdvance();
			int calls = 0;
			for (Worker worker : this.workers) {
				if (worker.failure != null) {
					throw worker.failure;
				}
				calls += worker.turnCalls;
			}
			return calls;
		}

		/**
		 * Return the times of every thread's measured calls.
		 */
		CallTimes times() {
			CallTimes times = new CallTimes(1 << 16);
			for (Worker worker : this.workers) {
				times.addAll(worker.times);
			}
			return times;
		}

		private final class Worker implements Runnable {

			private final ExclusiveLocks locks;

			private final String key;

			private final CallTimes times = new CallTimes(1 << 12);

			private int turnCalls;

			private @Nullable Exception failure;

			Worker(ExclusiveLocks locks, String key) {
				this.locks = locks;
				this.key = key;
			}

			@Override
			public void run() {
				while (true) {
					Workers.this.turns.arriveAndAwaitAdvance();
					long end = Workers.this.end;
					boolean measured = Workers.this.measured;
					int turnCalls = 0;
					try {
						turnCalls = makeCalls(this.locks, this.key, end, measured ? this.times : null);
					}
					catch (Exception ex) {
						this.failure = ex;
					}
					this.turnCalls = turnCalls;
					Workers.this.turns.arriveAndAwaitAdvance();
				}
			}

		}

	}

}
