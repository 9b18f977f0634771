package dev.zklock.micrometer;

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

	private final ZkLockTemplate template;

	/**
	 * Create gauges of a template.
	 * @param template the template
	 */
	public LockGauges(ZkLockTemplate template) {
		this.template = template;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder(HELD, this.template, (template) -> template.heldLocks().size())
			.description("Locks this instance holds now")
			.register(registry);
		Gauge.builder(WAITING, this.template, (template) -> template.waitingCalls().size())
			.description("Calls of this instance waiting for a lock now")
			.register(registry);
	}

}
