package dev.zklock.lock;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import dev.zklock.LockMode;

/**
 * A thread waiting for a lock: woken by the watch on the node before its own, and by changes of
 * the connection state.
 */
final class Waiter implements Watcher {

	private final String key;

	private final LockMode mode;

	private final Thread thread;

	private final Instant since = Instant.now();

	private boolean signalled;

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

	@Override
	public void process(WatchedEvent event) {
		signal();
	}

	synchronized void signal() {
		this.signalled = true;
		notifyAll();
	}

	synchronized void reset() {
		this.signalled = false;
	}

	/**
	 * Wait for a signal, at most until the deadline.
	 * @return whether a signal came
	 */
	synchronized boolean await(Deadline deadline) throws InterruptedException {
		while (!this.signalled) {
			long remaining = deadline.remainingNanos();
			if (remaining <= 0) {
				return false;
			}
			if (remaining == Long.MAX_VALUE) {
				wait();
			}
			else {
				TimeUnit.NANOSECONDS.timedWait(this, remaining);
			}
		}
		return true;
	}

}
