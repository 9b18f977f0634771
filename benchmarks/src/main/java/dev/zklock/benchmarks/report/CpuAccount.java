package dev.zklock.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The processor time spent on the machine so far, and how much of it went to this run: this
 * JVM and every process it started (the JMH forks, the ZooKeeper servers, the second JVMs),
 * living or ended. The difference between two readings tells how much processor time other
 * processes took meanwhile: the load that is not the benchmark's own, which a load average cannot
 * tell apart from it (a benchmark with 32 threads, or servers that sync every write to disk, raise
 * the load average by themselves). Read from {@code /proc}; {@link #UNKNOWN} elsewhere.
 *
 * @param machineTicks the time all processes ran, in user and system mode ({@code /proc/stat}),
 * in clock ticks
 * @param runTicks the part of it that this run's processes ran, in clock ticks
 * @param nanos when it was read ({@link System#nanoTime()})
 */
public record CpuAccount(long machineTicks, long runTicks, long nanos) {

	/** No reading: not on Linux, or {@code /proc} unreadable. */
	public static final CpuAccount UNKNOWN = new CpuAccount(-1, -1, 0);

	/** The kernel's clock ticks per second for these counters (USER_HZ), 100 on Linux. */
	private static final double TICKS_PER_SECOND = 100;

	/**
	 * Read the counters now.
	 * @return the reading, {@link #UNKNOWN} if it cannot be read
	 */
	public static CpuAccount read() {
		try {
			String machine = Files.readAllLines(Path.of("/proc/stat")).get(0);
			String[] fields = machine.trim().split("\\s+");
			// cpu user nice system idle ...: time in user (with nice) and system mode
			long machineTicks = Long.parseLong(fields[1]) + Long.parseLong(fields[2]) + Long.parseLong(fields[3]);
			ProcessHandle self = ProcessHandle.current();
			long runTicks = 0;
			for (ProcessHandle descendant : self.descendants().toList()) {
				runTicks += ticks(descendant.pid(), false);
			}
			// last, so that a child that ended while the others were read counts here
			runTicks += ticks(self.pid(), true);
			return new CpuAccount(machineTicks, runTicks, System.nanoTime());
		}
		catch (IOException | RuntimeException ex) {
			return UNKNOWN;
		}
	}

	/**
	 * Return the time a process ran, with that of its ended children: a process's children it
	 * has waited for (the JMH forks that ended, the second JVMs of a fork) count in its
	 * {@code cutime} and {@code cstime}, and leave the list of descendants.
	 */
	private static long ticks(long pid, boolean required) throws IOException {
		String stat;
		try {
			stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
		}
		catch (IOException ex) {
			if (required) {
				throw ex;
			}
			return 0; // ended and waited for between the listing and the reading: counted by its parent
		}
		// the fields after the command name, which is in parentheses and may hold spaces
		List<String> fields = List.of(stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+"));
		// fields counted from state (3): utime 14, stime 15, cutime 16, cstime 17
		return Long.parseLong(fields.get(11)) + Long.parseLong(fields.get(12)) + Long.parseLong(fields.get(13))
				+ Long.parseLong(fields.get(14));
	}

	/**
	 * Return whether this is a reading.
	 * @return whether it is known
	 */
	public boolean isKnown() {
		return this.machineTicks >= 0;
	}

	/**
	 * Return how many processors, on average, processes other than this run's kept busy from an
	 * earlier reading to this one.
	 * @param earlier the earlier reading
	 * @return the processors, {@link Double#NaN} if either reading is unknown
	 */
	public double otherProcessors(CpuAccount earlier) {
		if (!isKnown() || !earlier.isKnown() || this.nanos <= earlier.nanos) {
			return Double.NaN;
		}
		long other = (this.machineTicks - earlier.machineTicks) - (this.runTicks - earlier.runTicks);
		double seconds = (this.nanos - earlier.nanos) / 1e9;
		return Math.max(0, other) / TICKS_PER_SECOND / seconds;
	}

}
