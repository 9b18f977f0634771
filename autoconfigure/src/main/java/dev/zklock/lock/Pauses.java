package dev.zklock.lock;

/**
 * Tells whether the process may have paused (a long GC, SIGSTOP, a frozen VM) for long enough
 * that a ZooKeeper session may have expired without the client having noticed yet.
 */
@FunctionalInterface
public interface Pauses {

	/**
	 * Return whether the process may have paused for longer than the threshold since the given
	 * instant, or may be just waking from such a pause now.
	 * @param since an instant of the lock core's monotonic clock, in nanoseconds
	 * @return whether a pause may have happened
	 */
	boolean mayHavePausedSince(long since);

}
