package dev.zklock.curator;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockMode;

/**
 * The waits of Curator's {@code acquire} methods in zklock's terms.
 */
final class ModeLocks {

	private static final Duration FOREVER = Duration.ofMillis(-1);

	private ModeLocks() {
	}

	static void acquire(ReentrantHolds holds, LockMode mode) throws InterruptedException {
		if (!holds.acquire(mode, FOREVER)) {
			throw new IllegalStateException("The lock on key '" + holds.key() + "' was not obtained");
		}
	}

	static boolean acquire(ReentrantHolds holds, LockMode mode, long time, TimeUnit unit) throws InterruptedException {
		return holds.acquire(mode, Duration.ofNanos(Math.max(0, unit.toNanos(time))));
	}

}
