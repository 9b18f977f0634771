package dev.zklock;

import java.util.function.Supplier;

/**
 * Assertions that code runs under a zklock lock, for use in the code that needs the lock. They
 * catch a call that bypassed the lock (a call from inside the same object, which no proxy sees,
 * or a method that lost its {@code @ZkLocked}) when it happens:
 *
 * <pre class="code">
 * &#64;ZkLocked(key = "'stock:' + #sku")
 * public Reservation reserve(String sku, int qty) {
 *     ZkLockAssert.assertLocked("stock:" + sku);
 *     ...
 * }
 * </pre>
 *
 * They need nothing from a test library, so they stay in production code. A unit test that
 * calls such a method directly, with no lock, runs it inside {@link #runAsIfLocked(Runnable)} or
 * {@link #callAsIfLocked(Supplier)}: the assertions pass for that call only, on that thread, and
 * the scope ends with it, so nothing leaks into other tests (unlike a global switch).
 *
 * @since 0.1.0
 */
public final class ZkLockAssert {

	private static final ThreadLocal<Integer> assumedLocked = ThreadLocal.withInitial(() -> 0);

	private ZkLockAssert() {
	}

	/**
	 * Assert that the current thread holds the lock on the given key, in either mode: that the
	 * running code belongs to a call that holds it, as {@link ZkLockContext#find(String)} sees.
	 * @param key the key, as the lock was taken ({@code @ZkLocked}'s evaluated key)
	 * @throws IllegalStateException if it does not
	 */
	public static void assertLocked(String key) {
		if (isAssumedLocked() || ZkLockContext.find(key).isPresent()) {
			return;
		}
		throw new IllegalStateException("Expected to run under the zklock lock '" + key
				+ "', but the current thread does not hold it: call this code through its @ZkLocked method "
				+ "(on the Spring bean, not from inside the same object) or a ZkLockTemplate callback; "
				+ "a test that calls it directly can wrap the call in ZkLockAssert.runAsIfLocked(...)");
	}

	/**
	 * Assert that the current thread holds at least one zklock lock.
	 * @throws IllegalStateException if it holds none
	 */
	public static void assertLocked() {
		if (isAssumedLocked()) {
			return;
		}
		ZkLockContext.current();
	}

	/**
	 * Run the action with every assertion of this class passing on the current thread, as if it
	 * held every lock. Meant for tests that call lock-protected code directly.
	 * @param action the action
	 */
	public static void runAsIfLocked(Runnable action) {
		callAsIfLocked(() -> {
			action.run();
			return null;
		});
	}

	/**
	 * Call the supplier with every assertion of this class passing on the current thread, as if
	 * it held every lock. Meant for tests that call lock-protected code directly.
	 * @param <T> the result type
	 * @param action the action
	 * @return the action's result
	 */
	public static <T> T callAsIfLocked(Supplier<T> action) {
		int depth = assumedLocked.get();
		assumedLocked.set(depth + 1);
		try {
			return action.get();
		}
		finally {
			if (depth == 0) {
				assumedLocked.remove();
			}
			else {
				assumedLocked.set(depth);
			}
		}
	}

	private static boolean isAssumedLocked() {
		return assumedLocked.get() > 0;
	}

}
