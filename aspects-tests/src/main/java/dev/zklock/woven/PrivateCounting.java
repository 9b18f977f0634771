package dev.zklock.woven;

import dev.zklock.annotation.ZkLocked;

/**
 * A bean with a private locked method, which no proxy can intercept.
 */
public class PrivateCounting {

	private final UnsafeCounter counter;

	public PrivateCounting(UnsafeCounter counter) {
		this.counter = counter;
	}

	/**
	 * Increment through a call to this bean's own private locked method.
	 */
	public void increment() {
		incrementUnderLock();
	}

	@ZkLocked("'" + Counting.KEY + "'")
	private void incrementUnderLock() {
		this.counter.increment();
	}

}
