package dev.zklock.woven;

import dev.zklock.annotation.ZkLocked;

/**
 * A locked method in a class compiled by javac alone (the test sources are not woven).
 */
class UnwovenService {

	@ZkLocked("'unwoven'")
	public void work() {
	}

}
