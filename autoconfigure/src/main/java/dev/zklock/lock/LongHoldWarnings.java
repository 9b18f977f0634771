package dev.zklock.lock;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.zklock.ZkLockTemplate;

/**
 * Warns of locks held longer than {@code zklock.lock.long-hold-warning}: one WARN log a hold,
 * naming the key, the call and, for a blocking call, the holding thread's stack. Looks at the
 * instance's holds a few times within the threshold; reads nothing from ZooKeeper.
 *
 * @since 0.2.0
 */
public class LongHoldWarnings implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LongHoldWarnings.class);

	private final ZkLockTemplate template;

	private final Duration threshold;

	private final Clock clock;

	private final Set<String> warned = new HashSet<>();

	private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "zklock-long-holds");
		thread.setDaemon(true);
		return thread;
	});

	/**
	 * Create the warnings of a template.
	 * @param template the template
	 * @param threshold how long a hold may last before it is reported
	 */
	public LongHoldWarnings(ZkLockTemplate template, Duration threshold) {
		this(template, threshold, Clock.systemUTC());
	}

	LongHoldWarnings(ZkLockTemplate template, Duration threshold, Clock clock) {
		if (threshold.isNegative() || threshold.isZero()) {
			throw new IllegalArgumentException("'zklock.lock.long-hold-warning' must be positive, but was " + threshold);
		}
		this.template = template;
		this.threshold = threshold;
		this.clock = clock;
	}

	/**
	 * Start looking, every quarter of the threshold (at least every 10 ms, at most every 5 s).
	 */
	public void start() {
		long period = Math.max(10, Math.min(5000, this.threshold.toMillis() / 4));
		this.thread.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
	}

	/**
	 * Return the holds past the threshold now, oldest first.
	 * @return the holds
	 */
	public List<LongHold> current() {
		return this.template.holdsSince(this.clock.instant().minus(this.threshold));
	}

	/**
	 * Warn of the holds past the threshold not warned of yet. Stacks are read only when there is
	 * one to warn of; nothing that goes wrong here stops the next checks.
	 */
	void check() {
		try {
			Instant before = this.clock.instant().minus(this.threshold);
			Set<String> now = new HashSet<>();
			boolean unwarned = false;
			for (LongHold hold : this.template.holdsSinceWithoutStacks(before)) {
				now.add(id(hold));
				unwarned |= !this.warned.contains(id(hold));
			}
			if (unwarned) {
				for (LongHold hold : this.template.holdsSince(before)) {
					if (now.contains(id(hold)) && this.warned.add(id(hold))) {
						warn(hold);
					}
				}
			}
			this.warned.retainAll(now);
		}
		catch (Throwable ex) {
			logger.warn("Could not look at long holds (looked at again in the next check): " + ex);
		}
	}

	private static String id(LongHold hold) {
		return hold.key() + "\n" + hold.thread() + "\n" + hold.since();
	}

	private void warn(LongHold hold) {
		Duration held = Duration.between(hold.since(), this.clock.instant());
		StringBuilder message = new StringBuilder("Lock on key '").append(hold.key())
			.append("' held for ")
			.append(held.toMillis())
			.append(" ms, longer than zklock.lock.long-hold-warning (")
			.append(this.threshold)
			.append(") by ")
			.append((hold.call() != null) ? "call " + hold.call() + " on " : "")
			.append(hold.thread().equals("an asynchronous call") ? hold.thread() : "thread '" + hold.thread() + "'");
		for (StackTraceElement element : hold.stack()) {
			message.append("\n\tat ").append(element);
		}
		logger.warn(message);
	}

	@Override
	public void close() {
		this.thread.shutdownNow();
	}

}
