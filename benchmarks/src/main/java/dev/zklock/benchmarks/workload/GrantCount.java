package dev.zklock.benchmarks.workload;

import java.util.Locale;

/**
 * The lock grants of the two JVMs of workload 4 over the measurement iterations of one fork,
 * one line of the file the benchmark JVM appends to.
 *
 * @param library the library id
 * @param fork the process id of the benchmark JVM, which tells its forks apart
 * @param benchmarkJvm the grants to the benchmark JVM
 * @param otherJvm the grants to the second JVM over the same time
 * @param seconds the time over which they were counted
 */
public record GrantCount(String library, long fork, long benchmarkJvm, long otherJvm, double seconds) {

	/**
	 * Read a line written by {@link #line()}.
	 * @param line the line
	 * @return the count
	 * @throws IllegalArgumentException if the line is not one
	 */
	public static GrantCount parse(String line) {
		String[] fields = line.trim().split("\\s+");
		if (fields.length != 5) {
			throw new IllegalArgumentException("Not a grant count: '" + line + "'");
		}
		return new GrantCount(fields[0], Long.parseLong(fields[1]), Long.parseLong(fields[2]),
				Long.parseLong(fields[3]), Double.parseDouble(fields[4]));
	}

	/**
	 * Return this count as one line of text.
	 * @return the line, with its line break
	 */
	public String line() {
		return String.format(Locale.ROOT, "%s %d %d %d %.6f%n", this.library, this.fork, this.benchmarkJvm,
				this.otherJvm, this.seconds);
	}

	/**
	 * Add another count of the same library and fork.
	 * @param other the other count
	 * @return the sum
	 */
	public GrantCount plus(GrantCount other) {
		return new GrantCount(this.library, this.fork, this.benchmarkJvm + other.benchmarkJvm,
				this.otherJvm + other.otherJvm, this.seconds + other.seconds);
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
