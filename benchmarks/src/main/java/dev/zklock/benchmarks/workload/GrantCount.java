package dev.zklock.benchmarks.workload;

import java.util.Locale;

/**
 * The lock grants of the two JVMs of a two-JVM workload (4, 4t) over the measurement iterations
 * of one fork, one line of the file the benchmark JVM appends to.
 *
 * @param benchmark the benchmark class's name, which tells the workloads apart
 * @param library the library id
 * @param fork the process id of the benchmark JVM, which tells its forks apart
 * @param benchmarkJvm the grants to the benchmark JVM
 * @param otherJvm the grants to the second JVM over the same time
 * @param seconds the time over which they were counted
 * @param benchmarkJvmLongestGapNanos the longest time between two grants to the benchmark JVM
 * @param otherJvmLongestGapNanos the longest time between two grants to the second JVM
 */
public record GrantCount(String benchmark, String library, long fork, long benchmarkJvm, long otherJvm, double seconds,
		long benchmarkJvmLongestGapNanos, long otherJvmLongestGapNanos) {

	/**
	 * Read a line written by {@link #line()}.
	 * @param line the line
	 * @return the count
	 * @throws IllegalArgumentException if the line is not one
	 */
	public static GrantCount parse(String line) {
		String[] fields = line.trim().split("\\s+");
		if (fields.length != 8) {
			throw new IllegalArgumentException("Not a grant count: '" + line + "'");
		}
		return new GrantCount(fields[0], fields[1], Long.parseLong(fields[2]), Long.parseLong(fields[3]),
				Long.parseLong(fields[4]), Double.parseDouble(fields[5]), Long.parseLong(fields[6]),
				Long.parseLong(fields[7]));
	}

	/**
	 * Return this count as one line of text.
	 * @return the line, with its line break
	 */
	public String line() {
		return String.format(Locale.ROOT, "%s %s %d %d %d %.6f %d %d%n", this.benchmark, this.library, this.fork,
				this.benchmarkJvm, this.otherJvm, this.seconds, this.benchmarkJvmLongestGapNanos,
				this.otherJvmLongestGapNanos);
	}

	/**
	 * Add another count of the same benchmark, library and fork: the grants and times summed, the longest
	 * gaps the longer of the two.
	 * @param other the other count
	 * @return the sum
	 */
	public GrantCount plus(GrantCount other) {
		return new GrantCount(this.benchmark, this.library, this.fork, this.benchmarkJvm + other.benchmarkJvm,
				this.otherJvm + other.otherJvm, this.seconds + other.seconds,
				Math.max(this.benchmarkJvmLongestGapNanos, other.benchmarkJvmLongestGapNanos),
				Math.max(this.otherJvmLongestGapNanos, other.otherJvmLongestGapNanos));
	}

	/**
	 * Return the longer of the two JVMs' longest times between two of their grants: the longest
	 * wait of either as the remote waiter, at most.
	 * @return the gap in milliseconds
	 */
	public double longestGapMillis() {
		return Math.max(this.benchmarkJvmLongestGapNanos, this.otherJvmLongestGapNanos) / 1e6;
	}

	/**
	 * Return the lesser of the two JVMs' shares of all grants.
	 * @return the share, from 0 to 0.5
	 */
	public double smallerShare() {
		double share = benchmarkJvmShare();
		return Math.min(share, 1 - share);
	}

	/**
	 * Return the grants of both JVMs per second.
	 * @return the combined throughput
	 */
	public double combinedPerSecond() {
		return (this.benchmarkJvm + this.otherJvm) / this.seconds;
	}

	/**
	 * Return the benchmark JVM's share of all grants.
	 * @return the share, from 0 to 1
	 */
	public double benchmarkJvmShare() {
		return (double) this.benchmarkJvm / (this.benchmarkJvm + this.otherJvm);
	}

}
