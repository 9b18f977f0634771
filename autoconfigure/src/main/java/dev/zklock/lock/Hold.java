package dev.zklock.lock;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;

/**
 * One acquisition of a lock by a thread: the first one owns the node, reentrant ones share it.
 *
 * @param lock the lock
 * @param mode the mode this acquisition asked for
 * @param owner whether this acquisition created the node and releases it
 */
record Hold(ActiveLock lock, LockMode mode, boolean owner) implements HeldLock {

	@Override
	public String key() {
		return this.lock.key();
	}

	@Override
	public long fencingToken() {
		return this.lock.node().grantToken();
	}

	@Override
	public boolean isValid() {
		return this.lock.isValid();
	}

	@Override
	public void ensureValid() {
		if (!isValid()) {
			throw new LockLostException(key(), this.lock.reason());
		}
	}

	@Override
	public String toString() {
		return "HeldLock[key=" + key() + ", mode=" + this.mode + ", fencingToken=" + fencingToken() + "]";
	}

}
