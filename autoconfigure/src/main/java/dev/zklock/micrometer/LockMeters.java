package dev.zklock.micrometer;

import java.util.Locale;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.zklock.LockMode;
import dev.zklock.lock.AcquisitionOutcome;

/**
 * The wait and hold timers of the calls that share one set of tags, registered up front so
 * that a call only looks them up.
 */
final class LockMeters {

	private final Timer[][] waits = new Timer[LockMode.values().length][AcquisitionOutcome.values().length];

	private final Timer[] holds = new Timer[LockMode.values().length];

	LockMeters(MeterRegistry registry, Tags tags) {
		for (LockMode mode : LockMode.values()) {
			Tags modeTags = tags.and("mode", tagValue(mode));
			for (AcquisitionOutcome outcome : AcquisitionOutcome.values()) {
				this.waits[mode.ordinal()][outcome.ordinal()] = Timer.builder(LockMetrics.WAIT)
					.description("Time calls waited for their locks, by how the wait ended")
					.tags(modeTags.and("outcome", tagValue(outcome)))
					.register(registry);
			}
			this.holds[mode.ordinal()] = Timer.builder(LockMetrics.HOLD)
				.description("Time calls held their locks")
				.tags(modeTags)
				.register(registry);
		}
	}

	Timer wait(LockMode mode, AcquisitionOutcome outcome) {
		return this.waits[mode.ordinal()][outcome.ordinal()];
	}

	Timer hold(LockMode mode) {
		return this.holds[mode.ordinal()];
	}

	static String tagValue(Enum<?> value) {
		return value.name().toLowerCase(Locale.ROOT);
	}

}
