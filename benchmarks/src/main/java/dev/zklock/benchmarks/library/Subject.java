package dev.zklock.benchmarks.library;

import java.util.Arrays;

/**
 * What the benchmarks and the report say of one library under test: the name it has in
 * benchmark parameters, the name the report shows, how the benchmarks call it, and whether it is
 * zklock itself rather than a baseline.
 *
 * @param id the name used in benchmark parameters and arguments
 * @param label the name shown in the report
 * @param usage how the benchmarks call the library
 * @param zkLock whether this is zklock itself
 */
public record Subject(String id, String label, String usage, boolean zkLock) {

	/**
	 * A library under test, described by a {@link Subject}.
	 */
	public interface Described {

		/**
		 * Return the description.
		 * @return the subject
		 */
		Subject subject();

		/**
		 * Return the name used in benchmark parameters and arguments.
		 * @return the id
		 */
		default String id() {
			return subject().id();
		}

		/**
		 * Return the name shown in the report.
		 * @return the label
		 */
		default String label() {
			return subject().label();
		}

		/**
		 * Return how the benchmarks call the library, for the report.
		 * @return the calls
		 */
		default String usage() {
			return subject().usage();
		}

		/**
		 * Return whether this is zklock itself rather than a baseline.
		 * @return whether it is zklock
		 */
		default boolean isZkLock() {
			return subject().zkLock();
		}

	}

	/**
	 * Return the one of some libraries that has the given id.
	 * @param <T> the kind of library
	 * @param candidates the libraries
	 * @param id the id
	 * @return the library
	 * @throws IllegalArgumentException if none has that id
	 */
	public static <T extends Described> T find(T[] candidates, String id) {
		return Arrays.stream(candidates)
			.filter((candidate) -> candidate.id().equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No library '" + id + "' among "
					+ Arrays.stream(candidates).map(Described::id).toList()));
	}

}
