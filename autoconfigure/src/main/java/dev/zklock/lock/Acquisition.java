package dev.zklock.lock;

import java.util.List;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;

/**
 * The locks one call acquired, in the order it acquired them.
 */
public final class Acquisition {

	private final List<Hold> holds;

	Acquisition(List<Hold> holds) {
		this.holds = holds;
	}

	List<Hold> holds() {
		return this.holds;
	}

	/**
	 * Return the lock acquired last, the one the call sees as current.
	 * @return the innermost lock
	 */
	public HeldLock innermost() {
		return this.holds.get(this.holds.size() - 1);
	}

	/**
	 * Check, as the call returns, that every lock is still certainly held.
	 * @throws LockLostException naming the first lock that is lost or in doubt
	 */
	public void ensureHeld() {
		for (Hold hold : this.holds) {
			if (!hold.lock().isValid()) {
				throw new LockLostException(hold.key(), hold.lock().reason()
						+ "; the call's result is discarded, and what it did may have overlapped with another holder");
			}
		}
	}

}
