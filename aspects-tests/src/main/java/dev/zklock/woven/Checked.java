package dev.zklock.woven;

import dev.zklock.ZkLockAssert;
import dev.zklock.annotation.ZkLocked;

/**
 * A bean whose private locked method checks that it runs under its lock.
 */
public class Checked {

	static final String KEY = "checked";

	public void run() {
		check();
	}

	@ZkLocked("'" + KEY + "'")
	private void check() {
		ZkLockAssert.assertLocked(KEY);
	}

}
