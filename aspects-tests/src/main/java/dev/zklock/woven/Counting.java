package dev.zklock.woven;

import dev.zklock.annotation.ZkLocked;

/**
 * A bean whose public locked method is called from inside the bean, where a proxy would not
 * see the call.
 */
public class Counting {

	static final String KEY = "counter";

	private final UnsafeCounter counter;

	public Counting(UnsafeCounter counter) {
		this.counter = counter;
	}

	/**
	 * Increment through a call to this bean's own public locked method.
	 */
	public void incrementThroughSelf() {
		increment();
	}

	@ZkLocked("'" + KEY + "'")
	public void increment() {
		this.counter.increment();
	}

}
