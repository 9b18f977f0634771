package dev.zklock.lock;

import java.util.ArrayDeque;
import java.util.Iterator;

import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;

/**
 * The locks the current thread holds, innermost first.
 */
public final class ThreadHolds {

	/**
	 * The thread's locks; kept when empty, for the thread's next call (a JDK class with nothing
	 * in it, so that it holds no application's class loader).
	 */
	private static final ThreadLocal<ArrayDeque<Hold>> holds = new ThreadLocal<>();

	private ThreadHolds() {
	}

	/**
	 * Return the innermost lock the current thread holds.
	 * @return the lock, or {@code null} outside any lock
	 */
	public static @Nullable HeldLock current() {
		ArrayDeque<Hold> stack = holds.get();
		return (stack != null) ? stack.peek() : null;
	}

	/**
	 * Return the innermost lock on the key that the current thread holds.
	 * @param key the key
	 * @return the lock, or {@code null} if the thread does not hold it
	 */
	public static @Nullable HeldLock get(String key) {
		return find(key);
	}

	static @Nullable Hold find(String key) {
		ArrayDeque<Hold> stack = holds.get();
		if (stack != null) {
			for (Hold hold : stack) {
				if (hold.key().equals(key)) {
					return hold;
				}
			}
		}
		return null;
	}

	static void push(Hold hold) {
		ArrayDeque<Hold> stack = holds.get();
		if (stack == null) {
			stack = new ArrayDeque<>(4);
			holds.set(stack);
		}
		stack.push(hold);
	}

	static void remove(Hold hold) {
		ArrayDeque<Hold> stack = holds.get();
		if (stack == null) {
			return;
		}
		for (Iterator<Hold> iterator = stack.iterator(); iterator.hasNext();) {
			if (iterator.next() == hold) {
				iterator.remove();
				break;
			}
		}
	}

}
