package dev.zklock.autoconfigure;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Checks the {@code zklock.*} settings at startup, before they reach the client or the lock
 * template, so that a value zklock cannot use fails the startup at once with the property named
 * ({@link InvalidZkLockPropertyException}) rather than later and obscurely.
 */
final class ZkLockPropertyChecks {

	private static final Log logger = LogFactory.getLog(ZkLockPropertyChecks.class);

	/**
	 * The wait time that means "wait forever", as {@code @ZkLocked(waitTime = "-1")}.
	 */
	private static final Duration FOREVER = Duration.ofMillis(-1);

	private ZkLockPropertyChecks() {
	}

	/**
	 * Check the settings of the auto-configured client.
	 * @param properties the properties
	 */
	static void checkClient(ZkLockProperties properties) {
		positive("zklock.session-timeout", properties.getSessionTimeout(),
				"how long ZooKeeper keeps the session of an instance it no longer hears from, "
						+ "with the instance's locks and leadership (30s by default, and within the server's bounds: "
						+ "2 to 20 times its tickTime, 4s to 40s for a default server).");
		positive("zklock.connection-timeout", properties.getConnectionTimeout(),
				"how long to wait for a connection to ZooKeeper (10s by default).");
		ZkLockProperties.Retry retry = properties.getRetry();
		positive("zklock.retry.base-sleep", retry.getBaseSleep(),
				"the first pause between retries of a failed ZooKeeper operation (100ms by default).");
		if (retry.getMaxSleep().compareTo(retry.getBaseSleep()) < 0) {
			throw new InvalidZkLockPropertyException("zklock.retry.max-sleep", format(retry.getMaxSleep()),
					"it is shorter than 'zklock.retry.base-sleep' (" + format(retry.getBaseSleep()) + ")",
					"Set 'zklock.retry.max-sleep' to at least 'zklock.retry.base-sleep'.");
		}
		notNegative("zklock.retry.max-retries", retry.getMaxRetries());
		if (properties.getSessionTimeout().compareTo(properties.getConnectionTimeout()) < 0) {
			logger.warn("zklock.session-timeout (" + format(properties.getSessionTimeout())
					+ ") is shorter than zklock.connection-timeout (" + format(properties.getConnectionTimeout())
					+ "): a call may keep waiting for a connection to ZooKeeper after its session, and the locks and "
					+ "leadership it carried, have expired. Set zklock.connection-timeout to at most the session "
					+ "timeout.");
		}
	}

	/**
	 * Check the settings of the lock template.
	 * @param lock the lock properties
	 */
	static void checkLock(ZkLockProperties.Lock lock) {
		Duration waitTime = lock.getWaitTime();
		if (waitTime.isNegative() && !waitTime.equals(FOREVER)) {
			throw new InvalidZkLockPropertyException("zklock.lock.wait-time", format(waitTime),
					"it is negative, and only -1 (wait forever) may be",
					"Set 'zklock.lock.wait-time' to how long a call waits for a busy lock by default (for example "
							+ "'5s'), to '0' to try once without waiting, or to '-1' to wait forever.");
		}
		ZkLockProperties.Lock.Handoff handoff = lock.getHandoff();
		notNegative("zklock.lock.handoff.max-grants", handoff.getMaxGrants());
		notNegative("zklock.lock.handoff.max-time", handoff.getMaxTime());
		ZkLockProperties.Lock.Keep keep = lock.getKeep();
		notNegative("zklock.lock.keep.idle-time", keep.getIdleTime());
		notNegative("zklock.lock.keep.max-keys", keep.getMaxKeys());
		Duration longHoldWarning = lock.getLongHoldWarning();
		if (longHoldWarning != null) {
			positive("zklock.lock.long-hold-warning", longHoldWarning,
					"the hold after which a WARN names the key and the holder (for example '30s'), or remove it to "
							+ "watch no holds.");
		}
	}

	/**
	 * Check the settings of leader election.
	 * @param leader the leader properties
	 */
	static void checkLeader(ZkLockProperties.Leader leader) {
		notNegative("zklock.leader.component-stop-timeout", leader.getComponentStopTimeout());
	}

	private static void positive(String property, Duration value, String meaning) {
		if (value.isNegative() || value.isZero()) {
			throw new InvalidZkLockPropertyException(property, format(value), "it must be positive",
					"Set '" + property + "' to a positive duration: " + meaning
							+ " Durations take a unit: '500ms', '10s', '1m'.");
		}
	}

	private static void notNegative(String property, Duration value) {
		if (value.isNegative()) {
			throw new InvalidZkLockPropertyException(property, format(value), "it must not be negative",
					"Set '" + property + "' to zero or a positive duration, or remove it to use the default.");
		}
	}

	private static void notNegative(String property, int value) {
		if (value < 0) {
			throw new InvalidZkLockPropertyException(property, String.valueOf(value), "it must not be negative",
					"Set '" + property + "' to zero or a positive number, or remove it to use the default.");
		}
	}

	private static String format(Duration duration) {
		return duration.toMillis() + "ms";
	}

}
