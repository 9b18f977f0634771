package dev.zklock.lock;

import org.jspecify.annotations.Nullable;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * Whether a key's node is kept with no local call (a kept lock), counted against
 * {@code zklock.lock.keep.max-keys}, and the timer that ends it after
 * {@code zklock.lock.keep.idle-time}. Guarded by its key's lock.
 */
final class Keeping {

	private final KeyLocks locks;

	private boolean kept;

	private ZooKeeperPort.@Nullable Timer idleTimer;

	Keeping(KeyLocks locks) {
		this.locks = locks;
	}

	boolean isKept() {
		return this.kept;
	}

	/**
	 * Keep the node (its place among the kept keys already reserved) until the idle time ends.
	 */
	void start(Runnable idleTimeOver) {
		this.kept = true;
		this.idleTimer = this.locks.schedule(idleTimeOver, this.locks.settings().keepIdleTime().toNanos());
	}

	/**
	 * Stop keeping the node, if it was kept: a call uses it again, or it goes.
	 * @return whether it was kept
	 */
	boolean stop() {
		if (!this.kept) {
			return false;
		}
		this.kept = false;
		this.locks.releaseKept();
		ZooKeeperPort.Timer timer = this.idleTimer;
		this.idleTimer = null;
		if (timer != null) {
			timer.cancel();
		}
		return true;
	}

}
