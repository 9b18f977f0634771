package dev.zklock.systemtest.fault;

import dev.zklock.systemtest.check.Failover;
import org.jspecify.annotations.Nullable;

/**
 * A leader failover and the fault that caused it.
 *
 * @param failover the failover
 * @param cause the fault on the old leader, or on ZooKeeper, during the failover; none
 * when the old leader lost its session by itself
 */
record CausedFailover(Failover failover, @Nullable Fault cause) {

	String causeLabel() {
		return (this.cause != null) ? this.cause.nemesis().label() : "no fault";
	}

	/**
	 * Return the time from the fault to the new leader's first tick, or from the old
	 * leader's last tick when there was no fault.
	 */
	long sinceFaultMillis() {
		long from = (this.cause != null) ? this.cause.start() : this.failover.lastTickEnd();
		return this.failover.firstTickStart() - from;
	}

	@Override
	public String toString() {
		return this.failover + ", " + causeLabel() + ", " + sinceFaultMillis() + " ms after the fault";
	}

}
