package dev.zklock.benchmarks.library;

/**
 * Locks for a scheduled job that runs on one instance at a time and is skipped, not queued,
 * where another instance holds the lock.
 */
public interface SkippingLocks extends Locks {

	/**
	 * Run the work if the key's lock can be had without waiting.
	 * @param key the key
	 * @param work the work
	 * @return whether the work ran
	 * @throws Exception when the library fails
	 */
	boolean runIfFree(String key, Runnable work) throws Exception;

}
