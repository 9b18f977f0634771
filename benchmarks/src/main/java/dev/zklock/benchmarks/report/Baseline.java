package dev.zklock.benchmarks.report;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.zklock.benchmarks.library.Subject;

/**
 * What a row of a workload is compared with: the same benchmark method and parameters with
 * another library ({@link #library}), or the same library with some parameters set otherwise
 * ({@link #sameLibraryWith}), for example the same calls without asking for the fencing token.
 *
 * @param library the baseline's library id, {@code null} for the row's own library
 * @param params the parameters the baseline has otherwise than the row
 */
record Baseline(@Nullable String library, Map<String, String> params) {

	/**
	 * The same case run with another library.
	 */
	static Baseline library(Subject.Described library) {
		return new Baseline(library.id(), Map.of());
	}

	/**
	 * The same library with one parameter set to the given value.
	 */
	static Baseline sameLibraryWith(String param, String value) {
		return new Baseline(null, Map.of(param, value));
	}

	/**
	 * Return whether a measurement is a baseline row of this workload, the one others are
	 * divided by.
	 */
	boolean isBaseline(Measurement measurement) {
		return (this.library == null || this.library.equals(measurement.library()))
				&& measurement.params().entrySet().containsAll(this.params.entrySet());
	}

	/**
	 * Return the baseline of a measurement among some candidates.
	 */
	Optional<Measurement> of(Measurement measured, List<Measurement> candidates) {
		String library = (this.library != null) ? this.library : measured.library();
		Map<String, String> params = new HashMap<>(measured.params());
		params.putAll(this.params);
		return candidates.stream()
			.filter((candidate) -> candidate.benchmark().equals(measured.benchmark())
					&& candidate.method().equals(measured.method()) && candidate.library().equals(library)
					&& candidate.params().equals(params))
			.findFirst();
	}

	/**
	 * Return the name of the baseline in a column heading.
	 */
	String label(java.util.function.Function<String, String> libraryLabel) {
		if (this.library != null && this.params.isEmpty()) {
			return libraryLabel.apply(this.library);
		}
		String params = this.params.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + "=" + entry.getValue())
			.sorted()
			.collect(Collectors.joining(", "));
		return (this.library != null) ? libraryLabel.apply(this.library) + ", " + params : params;
	}

}
