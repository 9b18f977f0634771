package dev.zklock.benchmarks.workload;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * The longest time one JVM of workload 4 went between two of its lock grants (the ends of two
 * consecutive lock cycles of any of its threads). Its threads always want the lock, so a long
 * gap is a time when the other JVM had it: how long this JVM waited as the remote waiter.
 */
final class GrantGaps {

	private final AtomicLong lastGrant = new AtomicLong();

	private final LongAccumulator longest = new LongAccumulator(Math::max, 0);

	/**
	 * Note a grant that has just ended.
	 */
	void granted() {
		long now = System.nanoTime();
		long previous = this.lastGrant.getAndSet(now);
		if (previous != 0) {
			this.longest.accumulate(now - previous);
		}
	}

	/**
	 * Return the longest gap since the last call, and start again.
	 * @return the gap in nanoseconds, 0 if there was none
	 */
	long longestThenReset() {
		return this.longest.getThenReset();
	}

}
