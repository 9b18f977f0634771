package dev.zklock.woven;

import dev.zklock.annotation.ZkLocked;

/**
 * A bean whose private locked method has a key expression that names no parameter: the startup
 * check still applies in AspectJ mode.
 */
public class BadKey {

	public void run(String sku) {
		work(sku);
	}

	@ZkLocked("#item")
	private void work(String sku) {
	}

}
