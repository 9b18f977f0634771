package dev.zklock.micrometer;

import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import dev.zklock.ZkLockTemplate;

/**
 * Gauges of what a {@link ZkLockTemplate} holds and waits for now: {@value #HELD}, the locks
 * held, and {@value #WAITING}, the calls waiting for a lock.
 *
 * @since 0.1.0
 */
public final class LockGauges implements MeterBinder {

	/**
	 * Name of the gauge of locks held.
	 */
	public static final String HELD = "zklock.lock.held";

	/**
	 * Name of the gauge of calls waiting.
	 */
	public static final String WAITING = "zklock.lock.waiting";

	/**
	 * Name of the gauge of locks kept with no call holding them.
	 */
	public static final String KEPT = "zklock.lock.kept";

	/**
	 * Name of the counter of local handoffs: grants passed from call to call of this instance
	 * without ZooKeeper.
	 */
	public static final String HANDOFFS = "zklock.lock.handoffs";

	/**
	 * Name of the counter of grants that reused a kept lock.
	 */
	public static final String REUSES = "zklock.lock.kept.reuses";

	/**
	 * Name of the counter of kept locks released because another instance asked for the key.
	 */
	public static final String RELEASED_ON_REQUEST = "zklock.lock.kept.released";

	/**
	 * Name of the gauge of the oldest hold: how long the call holding a lock longest has held
	 * it, in seconds (0 when none holds one).
	 */
	public static final String OLDEST_HOLD = "zklock.lock.hold.oldest";

	private final ZkLockTemplate template;

	/**
	 * Create gauges of a template.
	 * @param template the template
	 */
	public LockGauges(ZkLockTemplate template) {
		this.template = template;
	}

	private static double oldestHold(ZkLockTemplate template) {
		Instant now = Instant.now();
		return template.heldLocks()
			.stream()
			.mapToDouble((held) -> Duration.between(held.since(), now).toNanos() / 1e9)
			.max()
			.orElse(0);
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder(HELD, this.template, (template) -> template.heldLocks().size())
			.description("Locks this instance holds now")
			.register(registry);
		Gauge.builder(OLDEST_HOLD, this.template, LockGauges::oldestHold)
			.description("How long the call holding a lock longest has held it")
			.baseUnit("seconds")
			.register(registry);
		Gauge.builder(WAITING, this.template, (template) -> template.waitingCalls().size())
			.description("Calls of this instance waiting for a lock now")
			.register(registry);
		Gauge.builder(KEPT, this.template, (template) -> template.lockCounts().kept())
			.description("Locks this instance keeps with no call holding them")
			.register(registry);
		FunctionCounter.builder(HANDOFFS, this.template, (template) -> template.lockCounts().handoffs())
			.description("Grants passed from call to call of this instance without ZooKeeper")
			.register(registry);
		FunctionCounter.builder(REUSES, this.template, (template) -> template.lockCounts().reuses())
			.description("Grants that reused a lock this instance kept")
			.register(registry);
		FunctionCounter.builder(RELEASED_ON_REQUEST, this.template, (template) -> template.lockCounts().releasesOnRequest())
			.description("Kept locks released because another instance asked for the key")
			.register(registry);
	}

}
