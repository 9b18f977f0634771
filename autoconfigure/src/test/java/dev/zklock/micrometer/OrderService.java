package dev.zklock.micrometer;

import java.util.concurrent.Callable;

import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.annotation.ZkLocked;

/**
 * Locked methods whose work the test supplies: two key expressions, and a short wait that
 * throws or skips.
 */
class OrderService {

	static final String ORDER_KEY = "'order:' + #id";

	static final String INVOICE_KEY = "'invoice:' + #id";

	@ZkLocked(key = ORDER_KEY, waitTime = "100ms")
	<T> T order(String id, Callable<T> work) throws Exception {
		return work.call();
	}

	@ZkLocked(key = ORDER_KEY, waitTime = "100ms", onTimeout = OnLockTimeout.SKIP)
	<T> T orderUnlessBusy(String id, Callable<T> work) throws Exception {
		return work.call();
	}

	@ZkLocked(key = INVOICE_KEY, waitTime = "100ms")
	<T> T invoice(String id, Callable<T> work) throws Exception {
		return work.call();
	}

}
