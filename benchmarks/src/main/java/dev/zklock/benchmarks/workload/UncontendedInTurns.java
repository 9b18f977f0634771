package dev.zklock.benchmarks.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.zklock.benchmarks.library.Library;
import dev.zklock.test.JavaProcess;

/**
 * Workload 1i: the uncontended call (zklock's defaults, one thread, one key) and the floor (a
 * synchronous create and delete by the same kind of client) taking turns in one JVM, so that
 * both meet the same moments of the machine. Workload 1 measures them in JMH forks minutes
 * apart, and the disk's syncs, which bound both, drift between those minutes as much as the
 * libraries differ; here each fork ({@link UncontendedInTurnsFork}) runs rounds of turns of
 * equal length, one turn of each library a round, each round starting one library further along,
 * after a warmup of the same turns, and compares them within itself: the median of its rounds'
 * throughput ratios, and its totals of each side. Other libraries may take turns beside the two
 * (the two transactions without a lock, say). The forks run one after the other, each in a JVM
 * of its own with the JMH forks' options.
 */
public final class UncontendedInTurns {

	private static final Duration START_AND_END = Duration.ofMinutes(2);

	private static final Pattern SIDE = Pattern.compile("^" + UncontendedInTurnsFork.SIDE
			+ "(\\S+) (\\d+) (\\d+) (\\d+) (-?\\d+) (\\d+) (\\d+) (\\d+) ([\\d.]+) ([\\d.]+) ([\\d.]+)$",
			Pattern.MULTILINE);

	/**
	 * One side's totals over a fork's measured turns.
	 *
	 * @param library the library's id
	 * @param calls the calls made
	 * @param nanos the time of its turns
	 * @param cpuNanos the CPU time of the whole process (every thread) during its turns
	 * @param compilerNanos the CPU time of the JIT compiler's threads during its turns, -1 where
	 * the system does not tell it
	 * @param bytes the bytes allocated by every thread during its turns
	 * @param p50Nanos the median call
	 * @param p99Nanos the 99th percentile call
	 * @param turnRatio the median, over the fork's rounds, of its calls per second over the
	 * floor's in the same round (1 for the floor)
	 * @param leastTurnRatio the least of those ratios
	 * @param greatestTurnRatio the greatest
	 */
	public record Side(String library, long calls, long nanos, long cpuNanos, long compilerNanos, long bytes,
			long p50Nanos, long p99Nanos, double turnRatio, double leastTurnRatio, double greatestTurnRatio) {

		/**
		 * Return the calls per second.
		 * @return the throughput
		 */
		public double perSecond() {
			return this.calls * 1e9 / this.nanos;
		}

		/**
		 * Return the process's CPU time per call, in nanoseconds.
		 * @return the CPU time
		 */
		public double cpuPerCall() {
			return (double) this.cpuNanos / this.calls;
		}

		/**
		 * Return the process's CPU time per call without the JIT compiler's threads, in
		 * nanoseconds; NaN where the compiler's time is not known.
		 * @return the CPU time
		 */
		public double cpuWithoutCompilerPerCall() {
			return (this.compilerNanos < 0) ? Double.NaN : (double) (this.cpuNanos - this.compilerNanos) / this.calls;
		}

		/**
		 * Return the JIT compiler's share of the process's CPU time, NaN where not known.
		 * @return the share, from 0 to 1
		 */
		public double compilerShare() {
			return (this.compilerNanos < 0) ? Double.NaN : (double) this.compilerNanos / this.cpuNanos;
		}

		/**
		 * Return the bytes allocated per call.
		 * @return the bytes
		 */
		public double bytesPerCall() {
			return (double) this.bytes / this.calls;
		}

	}

	/**
	 * What one fork measured: the floor's side first, then zklock's and any other library's.
	 *
	 * @param sides the sides, in the order of the fork's libraries
	 */
	public record Fork(List<Side> sides) {

		/**
		 * Return the floor's side.
		 * @return the side
		 */
		public Side floor() {
			return this.sides.get(0);
		}

		/**
		 * Return zklock's side.
		 * @return the side
		 */
		public Side zkLock() {
			return side(Library.ZKLOCK.id()).orElseThrow();
		}

		/**
		 * Return a library's side.
		 * @param library the library's id
		 * @return the side, empty where the fork did not run the library
		 */
		public Optional<Side> side(String library) {
			return this.sides.stream().filter((side) -> side.library().equals(library)).findFirst();
		}

		/**
		 * Return the median, over the fork's rounds, of zklock's calls per second over the
		 * floor's in the same round.
		 * @return the ratio
		 */
		public double throughputRatio() {
			return zkLock().turnRatio();
		}

		/**
		 * Return zklock's p99 over the floor's.
		 * @return the ratio
		 */
		public double p99Ratio() {
			return (double) zkLock().p99Nanos() / floor().p99Nanos();
		}

		/**
		 * Return zklock's process CPU per call over the floor's.
		 * @return the ratio
		 */
		public double cpuRatio() {
			return zkLock().cpuPerCall() / floor().cpuPerCall();
		}

		/**
		 * Return zklock's process CPU per call over the floor's, both without the JIT compiler.
		 * @return the ratio, NaN where not known
		 */
		public double cpuWithoutCompilerRatio() {
			return zkLock().cpuWithoutCompilerPerCall() / floor().cpuWithoutCompilerPerCall();
		}

	}

	/**
	 * The settings of the workload.
	 *
	 * @param forks the forks, one after the other
	 * @param warmup the warmup of each fork, in turns of every side
	 * @param rounds the measured rounds of each fork, a turn of each side
	 * @param turn the length of one turn
	 * @param libraries the libraries' ids: the floor, zklock, then any shown beside them
	 * @param threads the threads of each library: one on one key, or more on a key each
	 */
	public record Settings(int forks, Duration warmup, int rounds, Duration turn, List<String> libraries,
			int threads) {

		public Settings {
			if (libraries.size() < 2 || !libraries.get(0).equals(Library.FLOOR.id())
					|| !libraries.get(1).equals(Library.ZKLOCK.id())) {
				throw new IllegalArgumentException("Workload 1i's libraries must start with "
						+ Library.FLOOR.id() + "," + Library.ZKLOCK.id() + ", not " + libraries);
			}
			libraries.forEach(Library::of);
			libraries = List.copyOf(libraries);
			if (threads < 1) {
				throw new IllegalArgumentException("Workload 1i needs at least one thread, not " + threads);
			}
		}

	}

	private UncontendedInTurns() {
	}

	/**
	 * Measure the forks.
	 * @param connectString the ZooKeeper server every client connects to
	 * @param settings the settings
	 * @param jvmArgs the JVM options of the forks
	 * @param logs the folder for the forks' output
	 * ({@code turns-<name>-<threads>-threads-<fork>.log})
	 * @param name the name of the setup, in the log files' names
	 * @return one result per fork
	 * @throws Exception when a fork fails
	 */
	public static List<Fork> measure(String connectString, Settings settings, List<String> jvmArgs, Path logs,
			String name) throws Exception {
		Duration longest = settings.warmup()
			.plus(settings.turn().multipliedBy((long) settings.libraries().size() * settings.rounds()))
			.multipliedBy(2)
			.plus(START_AND_END);
		List<Fork> forks = new ArrayList<>();
		for (int fork = 1; fork <= settings.forks(); fork++) {
			String forkName = "turns-" + name + "-" + settings.threads() + "-threads-" + fork;
			Path output = Files.createDirectories(logs).resolve(forkName + ".log");
			Files.deleteIfExists(output);
			try (JavaProcess process = JavaProcess.builder(UncontendedInTurnsFork.class)
				.name(forkName)
				.jvmArgs(jvmArgs.toArray(String[]::new))
				.args(connectString, Long.toString(settings.warmup().toMillis()), Integer.toString(settings.rounds()),
						Long.toString(settings.turn().toMillis()), String.join(",", settings.libraries()),
						Integer.toString(settings.threads()))
				.output(output)
				.start()) {
				process.awaitOutput("^" + UncontendedInTurnsFork.DONE + "$", longest);
				forks.add(parse(process.outputText()));
			}
		}
		return forks;
	}

	static Fork parse(String output) {
		Matcher side = SIDE.matcher(output);
		List<Side> sides = new ArrayList<>();
		while (side.find()) {
			sides.add(new Side(side.group(1), Long.parseLong(side.group(2)), Long.parseLong(side.group(3)),
					Long.parseLong(side.group(4)), Long.parseLong(side.group(5)), Long.parseLong(side.group(6)),
					Long.parseLong(side.group(7)), Long.parseLong(side.group(8)), Double.parseDouble(side.group(9)),
					Double.parseDouble(side.group(10)), Double.parseDouble(side.group(11))));
		}
		if (sides.size() < 2 || !sides.get(0).library().equals(Library.FLOOR.id())
				|| sides.stream().noneMatch((parsed) -> parsed.library().equals(Library.ZKLOCK.id()))) {
			throw new IllegalStateException("A fork of workload 1i printed no figures of the floor and zklock:\n"
					+ output);
		}
		return new Fork(List.copyOf(sides));
	}

}
