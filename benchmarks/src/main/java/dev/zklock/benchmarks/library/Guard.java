package dev.zklock.benchmarks.library;

import java.util.Arrays;

/**
 * How leader-only code is guarded, so that the two libraries are compared like with like.
 */
public enum Guard {

	/** The check written in the caller: {@code if (isLeader) work.run()}. */
	INLINE("inline"),

	/** A call through a Spring CGLIB proxy whose one interceptor runs the check. */
	PROXIED("proxied");

	private final String id;

	Guard(String id) {
		this.id = id;
	}

	/**
	 * Return the guard named by a benchmark parameter.
	 * @param id {@code inline} or {@code proxied}
	 * @return the guard
	 */
	public static Guard of(String id) {
		return Arrays.stream(values())
			.filter((guard) -> guard.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("guard must be inline or proxied, not '" + id + "'"));
	}

}
