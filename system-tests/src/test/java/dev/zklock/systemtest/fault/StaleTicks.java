package dev.zklock.systemtest.fault;

import java.util.List;

import dev.zklock.systemtest.check.Failover;
import dev.zklock.systemtest.history.Operation;

/**
 * The ticks of an old leader that began after the new leader's first tick.
 *
 * @param failover the failover
 * @param ticks the old leader's ticks, by start
 */
record StaleTicks(Failover failover, List<Operation> ticks) {

	int count() {
		return this.ticks.size();
	}

	/**
	 * Return the time from the first of these ticks to the end of the last.
	 */
	long spanMillis() {
		return this.ticks.get(this.ticks.size() - 1).end() - this.ticks.get(0).start();
	}

	@Override
	public String toString() {
		return this.failover.fromProcess() + "#" + this.failover.fromEpoch() + " ticked " + count() + " times in "
				+ spanMillis() + " ms after " + this.failover.toProcess() + "#" + this.failover.toEpoch()
				+ " began, from " + this.ticks.get(0).start() + (this.failover.revokedAt() != null
						? ", revoked at " + this.failover.revokedAt() : ", never revoked");
	}

}
