package dev.zklock.systemtest.fault;

import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;

/**
 * A fault injected in a run: what, on which process, from when until it was healed.
 *
 * @param nemesis the kind of fault
 * @param target the application process ({@code app-2}) or ZooKeeper server ({@code zk-3})
 * @param start when it was injected, in epoch milliseconds
 * @param end when it was healed (the process started again, the pause or partition ended)
 * @param detail more about it, such as the lock a paused process held
 */
record Fault(Nemesis nemesis, String target, long start, long end, String detail) {

	static final String PROCESS = "nemesis";

	/**
	 * Return the fault as a line of the run's history.
	 */
	Operation toOperation() {
		return new Operation(PROCESS, OpKind.NEMESIS, this.target, this.start, this.end, null, Outcome.OK, null,
				this.nemesis.label() + (this.detail.isEmpty() ? "" : " " + this.detail));
	}

	long durationMillis() {
		return this.end - this.start;
	}

	@Override
	public String toString() {
		return this.nemesis.label() + " " + this.target + " [" + this.start + ".." + this.end + "] "
				+ durationMillis() + " ms" + (this.detail.isEmpty() ? "" : " (" + this.detail + ")");
	}

}
