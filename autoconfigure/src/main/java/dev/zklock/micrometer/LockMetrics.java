package dev.zklock.micrometer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.lock.AcquisitionOutcome;
import dev.zklock.lock.LockCall;
import dev.zklock.lock.LockCallListener;

/**
 * Metrics of the calls of a {@link dev.zklock.ZkLockTemplate} (and so of {@code @ZkLocked}
 * methods):
 * <ul>
 * <li>{@value #WAIT} (timer): how long calls waited for their locks, tagged {@code mode}
 * ({@code exclusive}, {@code shared}) and {@code outcome} ({@code acquired}, {@code timeout},
 * {@code skipped}, {@code error});
 * <li>{@value #HOLD} (timer): how long calls held their locks, tagged {@code mode};
 * <li>{@value #LOST} (counter): locks lost while held, tagged {@code mode}.
 * </ul>
 * Keys are never tags, since their values are unbounded. Optionally the timers carry a
 * {@code key} tag holding the name of the call (the {@code @ZkLocked} key expression's text,
 * {@code none} for unnamed template calls), with at most a given number of values; calls beyond
 * it are tagged {@code other}.
 *
 * @since 0.1.0
 */
public final class LockMetrics implements LockCallListener {

	/**
	 * Name of the timer of lock waits.
	 */
	public static final String WAIT = "zklock.lock.wait";

	/**
	 * Name of the timer of lock holds.
	 */
	public static final String HOLD = "zklock.lock.hold";

	/**
	 * Name of the counter of lost locks.
	 */
	public static final String LOST = "zklock.lock.lost";

	static final String UNNAMED = "none";

	static final String OTHER = "other";

	private static final Log logger = LogFactory.getLog(LockMetrics.class);

	private final MeterRegistry registry;

	private final Clock clock;

	private final @Nullable LockMeters untagged;

	private final Map<String, LockMeters> byName = new ConcurrentHashMap<>();

	private final int maxKeyTags;

	private final Counter[] lost = new Counter[LockMode.values().length];

	/**
	 * Create lock metrics without a key tag.
	 * @param registry where the meters are registered
	 */
	public LockMetrics(MeterRegistry registry) {
		this(registry, false, 0);
	}

	/**
	 * Create lock metrics.
	 * @param registry where the meters are registered
	 * @param keyTag whether to tag the timers by the name of the call
	 * @param maxKeyTags the largest number of distinct names to tag by
	 */
	public LockMetrics(MeterRegistry registry, boolean keyTag, int maxKeyTags) {
		this.registry = registry;
		this.clock = registry.config().clock();
		this.untagged = keyTag ? null : new LockMeters(registry, Tags.empty());
		this.maxKeyTags = maxKeyTags;
		for (LockMode mode : LockMode.values()) {
			this.lost[mode.ordinal()] = Counter.builder(LOST)
				.description("Locks lost while held: their ZooKeeper session ended or was replaced")
				.tag("mode", LockMeters.tagValue(mode))
				.register(registry);
		}
	}

	@Override
	public LockCall callStarted(@Nullable String name, List<String> keys, LockMode mode) {
		return new TimedCall(meters(name), mode, this.clock);
	}

	@Override
	public void lockLost(String key, LockMode mode) {
		this.lost[mode.ordinal()].increment();
	}

	private LockMeters meters(@Nullable String name) {
		LockMeters untagged = this.untagged;
		if (untagged != null) {
			return untagged;
		}
		String tag = (name != null) ? name : UNNAMED;
		LockMeters meters = this.byName.get(tag);
		if (meters != null) {
			return meters;
		}
		if (this.byName.size() >= this.maxKeyTags) {
			return this.byName.computeIfAbsent(OTHER, (other) -> {
				logger.warn("More than " + this.maxKeyTags + " distinct key tags for lock metrics; tagging further "
						+ "ones '" + OTHER + "' (see zklock.metrics.max-key-tags)");
				return tagged(other);
			});
		}
		return this.byName.computeIfAbsent(tag, this::tagged);
	}

	private LockMeters tagged(String tag) {
		return new LockMeters(this.registry, Tags.of("key", tag));
	}

	/**
	 * Times one call: its wait from the start to the end of the acquisition, and its hold from
	 * then to the release.
	 */
	private static final class TimedCall implements LockCall {

		private final LockMeters meters;

		private final LockMode mode;

		private final Clock clock;

		private volatile long mark;

		TimedCall(LockMeters meters, LockMode mode, Clock clock) {
			this.meters = meters;
			this.mode = mode;
			this.clock = clock;
			this.mark = clock.monotonicTime();
		}

		@Override
		public void acquired(HeldLock lock) {
			long now = this.clock.monotonicTime();
			this.meters.wait(this.mode, AcquisitionOutcome.ACQUIRED).record(now - this.mark, TimeUnit.NANOSECONDS);
			this.mark = now;
		}

		@Override
		public void notAcquired(AcquisitionOutcome outcome, @Nullable Throwable error) {
			this.meters.wait(this.mode, outcome).record(this.clock.monotonicTime() - this.mark, TimeUnit.NANOSECONDS);
		}

		@Override
		public void ended(@Nullable Throwable error) {
			this.meters.hold(this.mode).record(this.clock.monotonicTime() - this.mark, TimeUnit.NANOSECONDS);
		}

	}

}
