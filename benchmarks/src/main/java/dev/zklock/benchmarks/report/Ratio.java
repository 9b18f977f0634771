package dev.zklock.benchmarks.report;

import java.util.List;
import java.util.Locale;

/**
 * One library's figure divided by a baseline's, with an interval: the ratio of the medians over
 * forks, and the least and greatest ratio of any fork of one to any fork of the other. Where the
 * two ranges of forks overlap, the run cannot tell them apart: no difference.
 *
 * @param median the median divided by the baseline's median
 * @param low the least value divided by the baseline's greatest
 * @param high the greatest value divided by the baseline's least
 * @param overlapping whether the two ranges have a value in common
 * @param forks the fewer of the two counts of values
 */
public record Ratio(double median, double low, double high, boolean overlapping, int forks) {

	/**
	 * Compare values with a baseline's.
	 * @param values one value per fork
	 * @param baseline the baseline's, one per fork
	 * @return the ratio
	 */
	public static Ratio of(List<Double> values, List<Double> baseline) {
		Spread measured = Spread.of(values);
		Spread base = Spread.of(baseline);
		return new Ratio(measured.median() / base.median(), measured.min() / base.max(),
				measured.max() / base.min(), measured.overlaps(base), Math.min(measured.count(), base.count()));
	}

	/**
	 * Return whether the run has an interval at all: at least two forks on each side.
	 * @return whether it does
	 */
	public boolean hasInterval() {
		return this.forks >= 2;
	}

	/**
	 * Return whether the run tells the two apart: an interval that does not overlap.
	 * @return whether they differ
	 */
	public boolean differs() {
		return hasInterval() && !this.overlapping;
	}

	/**
	 * Return whether the whole interval lies within the given bounds.
	 * @param lower the lower bound
	 * @param upper the upper bound
	 * @return whether it does
	 */
	public boolean within(double lower, double upper) {
		return hasInterval() && this.low >= lower && this.high <= upper;
	}

	/**
	 * Return the ratio as the report shows it: {@code 1.68× (1.40–2.01×)}, marked {@code no
	 * difference} where the forks overlap and {@code one fork} where there is no interval.
	 * @return the text
	 */
	public String format() {
		String median = times(this.median);
		if (!hasInterval()) {
			return median + " (one fork: no interval)";
		}
		String interval = " (" + times(this.low).replace("×", "") + "–" + times(this.high) + ")";
		return this.overlapping ? "no difference: " + median + interval : median + interval;
	}

	static String times(double ratio) {
		return String.format(Locale.ROOT, ratio >= 10 ? "%.1f×" : "%.2f×", ratio);
	}

}
