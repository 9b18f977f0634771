package dev.zklock.lock;

/**
 * The fairness bound of local handoff on one node: once another instance is seen waiting for the
 * key, at most {@code zklock.lock.handoff.max-grants} more local grants, and none once
 * {@code zklock.lock.handoff.max-time} has passed (see {@code docs/lock-core.md}). Guarded by
 * its key's lock; the time is the port's.
 */
final class HandoffBound {

	private final LockSettings settings;

	private volatile boolean othersWait;

	private long seenAt;

	private int grants;

	HandoffBound(LockSettings settings) {
		this.settings = settings;
	}

	/**
	 * Return whether another instance is known to wait for the key.
	 */
	boolean othersWait() {
		return this.othersWait;
	}

	/**
	 * Another instance waits for the key.
	 * @return {@code true} if that is news: the bound starts now
	 */
	boolean othersSeen(long now) {
		if (this.othersWait) {
			return false;
		}
		this.othersWait = true;
		this.seenAt = now;
		this.grants = 0;
		return true;
	}

	/**
	 * A local grant was made on the node.
	 */
	void granted() {
		if (this.othersWait) {
			this.grants++;
		}
	}

	/**
	 * Return whether another local grant may be made on the node: always, unless another
	 * instance waits and the bound is spent.
	 */
	boolean mayGrantAgain(long now) {
		return !this.othersWait || (this.grants < this.settings.handoffMaxGrants()
				&& now - this.seenAt < this.settings.handoffMaxTime().toNanos());
	}

	/**
	 * Start again, for a new node.
	 */
	void reset() {
		this.othersWait = false;
		this.grants = 0;
	}

}
