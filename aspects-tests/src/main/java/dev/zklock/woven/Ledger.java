package dev.zklock.woven;

import dev.zklock.annotation.ZkLocked;

import org.springframework.transaction.annotation.Transactional;

/**
 * A bean whose method is both locked and transactional, with both aspects woven; it is called
 * from inside the bean too.
 */
public class Ledger {

	public static final String KEY = "ledger";

	public void postThroughSelf() {
		post();
	}

	@ZkLocked("'" + KEY + "'")
	@Transactional
	public void post() {
	}

}
