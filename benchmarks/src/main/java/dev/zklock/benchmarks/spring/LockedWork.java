package dev.zklock.benchmarks.spring;

import dev.zklock.annotation.ZkLocked;

/**
 * A bean with a {@code @ZkLocked} method, the way an application declares one.
 */
public class LockedWork {

	/**
	 * Run the work holding the key's lock.
	 * @param key the key
	 * @param work the work
	 */
	@ZkLocked("#key")
	public void run(String key, Runnable work) {
		work.run();
	}

}
