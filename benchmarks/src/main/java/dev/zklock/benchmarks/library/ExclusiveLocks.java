package dev.zklock.benchmarks.library;

/**
 * Exclusive locks of one library: take a key's lock, run the work, release it.
 */
public interface ExclusiveLocks extends Locks {

	/**
	 * Run the work holding the key's lock exclusively, waiting for it as long as it takes.
	 * @param key the key
	 * @param work the work
	 * @throws Exception when the library fails
	 */
	void runExclusive(String key, Runnable work) throws Exception;

}
