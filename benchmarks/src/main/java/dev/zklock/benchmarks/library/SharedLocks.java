package dev.zklock.benchmarks.library;

/**
 * Shared (read) locks of one library: holders of the same key run together.
 */
public interface SharedLocks extends Locks {

	/**
	 * Run the work holding the key's lock shared, waiting for it as long as it takes.
	 * @param key the key
	 * @param work the work
	 * @throws Exception when the library fails
	 */
	void runShared(String key, Runnable work) throws Exception;

}
