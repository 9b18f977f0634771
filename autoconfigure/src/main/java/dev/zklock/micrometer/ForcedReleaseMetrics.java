package dev.zklock.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.zklock.cluster.ForcedRelease;
import dev.zklock.cluster.ForcedReleaseListener;

/**
 * Counts forced releases: {@code zklock.lock.force.release} tagged {@code side=releaser} for
 * every release this instance made, and {@code side=owner} for every held lock node of this
 * instance that another instance released.
 *
 * @since 0.2.0
 */
public class ForcedReleaseMetrics implements ForcedReleaseListener {

	private final Counter made;

	private final Counter suffered;

	/**
	 * Create the counters.
	 * @param registry the registry
	 */
	public ForcedReleaseMetrics(MeterRegistry registry) {
		this.made = Counter.builder("zklock.lock.force.release")
			.description("Forced releases of lock nodes")
			.tag("side", "releaser")
			.register(registry);
		this.suffered = Counter.builder("zklock.lock.force.release")
			.description("Forced releases of lock nodes")
			.tag("side", "owner")
			.register(registry);
	}

	@Override
	public void released(ForcedRelease release) {
		this.made.increment();
	}

	@Override
	public void lost(int nodes) {
		this.suffered.increment(nodes);
	}

}
