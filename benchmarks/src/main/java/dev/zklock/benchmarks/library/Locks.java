package dev.zklock.benchmarks.library;

/**
 * The locks of one library on one client; closing them releases what the library keeps, not
 * the client.
 */
public interface Locks extends AutoCloseable {

	@Override
	default void close() {
	}

}
