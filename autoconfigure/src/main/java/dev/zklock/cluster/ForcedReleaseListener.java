package dev.zklock.cluster;

/**
 * Told of forced releases, for metrics: those this instance makes, and those of its own lock
 * nodes that another instance makes.
 *
 * @since 0.2.0
 */
public interface ForcedReleaseListener {

	/**
	 * A listener that does nothing.
	 */
	ForcedReleaseListener NONE = new ForcedReleaseListener() {
	};

	/**
	 * This instance released lock nodes.
	 * @param release what it released
	 */
	default void released(ForcedRelease release) {
	}

	/**
	 * Another instance released lock nodes that this instance held.
	 * @param nodes how many it held
	 */
	default void lost(int nodes) {
	}

}
