package dev.zklock.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The machine's load averages over 1, 5 and 15 minutes, as Linux reports them in
 * {@code /proc/loadavg}; {@code NaN} where unknown.
 *
 * @param one over the last minute
 * @param five over the last 5 minutes
 * @param fifteen over the last 15 minutes
 */
public record LoadAverage(double one, double five, double fifteen) {

	/** The load averages where the system does not tell them. */
	public static final LoadAverage UNKNOWN = new LoadAverage(Double.NaN, Double.NaN, Double.NaN);

	/**
	 * Read the load averages now.
	 * @return them, or {@link #UNKNOWN}
	 */
	public static LoadAverage read() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return new LoadAverage(Double.parseDouble(fields[0]), Double.parseDouble(fields[1]),
					Double.parseDouble(fields[2]));
		}
		catch (IOException | RuntimeException ex) {
			return UNKNOWN;
		}
	}

	/**
	 * Return whether the machine had more to run than the given load over the last minute.
	 * @param busyLoad the load from which the machine counts as busy
	 * @return whether it was busy; {@code false} where unknown
	 */
	public boolean isBusy(double busyLoad) {
		return this.one > busyLoad;
	}

	/**
	 * Return the three figures as the report shows them.
	 * @return {@code 1 / 5 / 15} minute averages
	 */
	public String format() {
		return Double.isNaN(this.one) ? "unknown"
				: String.format(Locale.ROOT, "%.2f / %.2f / %.2f", this.one, this.five, this.fifteen);
	}

}
