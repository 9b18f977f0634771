package dev.zklock.lock;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;

/**
 * A blocking call waiting for a lock, as the waiting calls' view shows it: the call waits on its
 * request's answer (through the port), not here.
 */
final class Waiter {

	private final String key;

	private final LockMode mode;

	private final Thread thread;

	private final Instant since = Instant.now();

	private final @Nullable String call = NodeOwners.call(null);

	Waiter(String key, LockMode mode) {
		this.key = key;
		this.mode = mode;
		this.thread = Thread.currentThread();
	}

	String key() {
		return this.key;
	}

	LockMode mode() {
		return this.mode;
	}

	Thread thread() {
		return this.thread;
	}

	Instant since() {
		return this.since;
	}

	@Nullable String call() {
		return this.call;
	}

}
