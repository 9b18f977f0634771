package dev.zklock.lock;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;

/**
 * Told of every call of a {@link dev.zklock.ZkLockTemplate} and of every lock it loses, for
 * metrics and traces. {@link #NONE} keeps the lock path free of any extra work.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface LockCallListener {

	/**
	 * A listener that follows nothing.
	 */
	LockCallListener NONE = (name, keys, mode) -> LockCall.NONE;

	/**
	 * A call is about to wait for its locks; called on the calling thread.
	 * @param name what the call locks as its code names it, from a small fixed set (the key
	 * expression of a {@code @ZkLocked} method), or {@code null}
	 * @param keys the keys, in the order they are locked
	 * @param mode the mode
	 * @return what follows the rest of the call, {@link LockCall#NONE} for nothing
	 */
	LockCall callStarted(@Nullable String name, List<String> keys, LockMode mode);

	/**
	 * A held lock was lost: its session ended, or a new session replaced it; called on the
	 * thread that noticed, which must not be held up.
	 * @param key the key
	 * @param mode the mode
	 */
	default void lockLost(String key, LockMode mode) {
	}

	/**
	 * Return one listener that tells each of the given ones, in order.
	 * @param listeners the listeners
	 * @return {@link #NONE} when there are none, the listener itself when there is one
	 */
	static LockCallListener of(List<? extends LockCallListener> listeners) {
		return switch (listeners.size()) {
			case 0 -> NONE;
			case 1 -> listeners.get(0);
			default -> new CompositeLockCallListener(List.copyOf(listeners));
		};
	}

}
