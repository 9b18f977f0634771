package dev.zklock.benchmarks.library;

/**
 * Exclusive locks whose every locked call asks for its grant's fencing token before its work,
 * as a caller that writes to a fenced resource does.
 */
public interface FencedLocks extends ExclusiveLocks {

	/** What {@link #runFenced} returns for a library that has no fencing token. */
	long NO_TOKEN = -1;

	/**
	 * Run the work holding the key's lock exclusively, after asking for the grant's fencing token.
	 * A library without fencing tokens (Curator's {@code InterProcessMutex}) runs the plain lock
	 * cycle: it is the baseline that zklock's tokens are measured against.
	 * @param key the key
	 * @param work the work
	 * @return the token, or {@link #NO_TOKEN}
	 * @throws Exception when the library fails
	 */
	long runFenced(String key, Runnable work) throws Exception;

}
