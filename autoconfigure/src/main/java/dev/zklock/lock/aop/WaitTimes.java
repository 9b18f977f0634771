package dev.zklock.lock.aop;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * Parses the {@code waitTime} of {@code @ZkLocked}, after its placeholders are resolved.
 */
final class WaitTimes {

	/**
	 * The wait time that means "wait forever" to the lock template.
	 */
	static final Duration FOREVER = Duration.ofMillis(-1);

	static final String USAGE = "use a duration such as '500ms', '5s' or 'PT5S', '0' not to wait, '-1' to wait "
			+ "forever, or leave it empty to use zklock.lock.wait-time";

	private WaitTimes() {
	}

	/**
	 * Parse a wait time: empty is the default ({@code null}), {@code "0"} no wait, {@code "-1"}
	 * forever; otherwise a simple ({@code "500ms"}, {@code "5s"}; milliseconds without a unit),
	 * ISO-8601 ({@code "PT5S"}) or composite ({@code "1m30s"}) duration, as
	 * {@link DurationFormatterUtils#detectAndParse} reads them.
	 * @param value the resolved value
	 * @return the wait time, or {@code null} for the default
	 * @throws IllegalArgumentException if the value is not a wait time
	 */
	static @Nullable Duration parse(String value) {
		String trimmed = value.trim();
		if (trimmed.isEmpty()) {
			return null;
		}
		if (trimmed.equals("-1")) {
			return FOREVER;
		}
		Duration duration;
		try {
			duration = DurationFormatterUtils.detectAndParse(trimmed, DurationFormat.Unit.MILLIS);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("it is not a duration", ex);
		}
		if (duration.isNegative()) {
			throw new IllegalArgumentException("it is negative, and only '-1' (wait forever) may be");
		}
		return duration;
	}

}
