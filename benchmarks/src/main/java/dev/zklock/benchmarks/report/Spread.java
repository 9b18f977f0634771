package dev.zklock.benchmarks.report;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Some values summarized: their median, quartiles and extremes.
 *
 * @param median the median
 * @param p25 the 25th percentile
 * @param p75 the 75th percentile
 * @param min the least value
 * @param max the greatest value
 * @param count how many values there were
 */
public record Spread(double median, double p25, double p75, double min, double max, int count) {

	/**
	 * Summarize values; percentiles interpolate linearly between the nearest values.
	 * @param values the values, at least one
	 * @return their spread
	 */
	public static Spread of(List<Double> values) {
		if (values.isEmpty()) {
			throw new IllegalArgumentException("No values to summarize");
		}
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
		Arrays.sort(sorted);
		return new Spread(percentile(sorted, 0.5), percentile(sorted, 0.25), percentile(sorted, 0.75), sorted[0],
				sorted[sorted.length - 1], sorted.length);
	}

	private static double percentile(double[] sorted, double fraction) {
		double position = fraction * (sorted.length - 1);
		int below = (int) Math.floor(position);
		int above = (int) Math.ceil(position);
		return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
	}

	/**
	 * Return whether this spread's range and another's have a value in common.
	 * @param other the other spread
	 * @return whether the ranges overlap
	 */
	public boolean overlaps(Spread other) {
		return this.min <= other.max && other.min <= this.max;
	}

	/**
	 * Return this spread as the report shows one value per fork: {@code median (min–max)}.
	 * @return the text
	 */
	public String format() {
		return format("");
	}

	/**
	 * Return this spread as {@link #format()} does, each number but the least followed by a
	 * unit: {@code 0.931× (0.925–0.944×)}.
	 * @param unit the unit
	 * @return the text
	 */
	public String format(String unit) {
		if (this.count == 1 || this.min == this.max) {
			return number(this.median) + unit;
		}
		return number(this.median) + unit + " (" + number(this.min) + "–" + number(this.max) + unit + ")";
	}

	/**
	 * Return this spread with its quartiles: {@code median (p25–p75)}.
	 * @return the text
	 */
	public String formatQuartiles() {
		if (this.count == 1 || this.p25 == this.p75) {
			return number(this.median);
		}
		return number(this.median) + " (" + number(this.p25) + "–" + number(this.p75) + ")";
	}

	/**
	 * Format a number with three significant digits, and no decimals from 100 up.
	 * @param value the number
	 * @return the text
	 */
	public static String number(double value) {
		if (Double.isNaN(value) || Double.isInfinite(value)) {
			return "n/a";
		}
		double magnitude = Math.abs(value);
		if (magnitude >= 100) {
			return String.format(Locale.ROOT, "%,d", Math.round(value));
		}
		if (magnitude >= 10) {
			return String.format(Locale.ROOT, "%.1f", value);
		}
		if (magnitude >= 1) {
			return String.format(Locale.ROOT, "%.2f", value);
		}
		return String.format(Locale.ROOT, "%.3g", value);
	}

}
