package dev.zklock.lock;

import java.time.Instant;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import org.jspecify.annotations.Nullable;

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

	private final @Nullable String call = NodeOwners.call(null);

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition signal = this.lock.newCondition();

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

	@Nullable String call() {
		return this.call;
	}

	@Override
	public void process(WatchedEvent event) {
		signal();
	}

	void signal() {
		this.lock.lock();
		try {
			this.signalled = true;
			this.signal.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	void reset() {
		this.lock.lock();
		try {
			this.signalled = false;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Wait for a signal, at most until the deadline. Waits on a {@code java.util.concurrent}
	 * condition, not a monitor, so that a virtual thread waiting here does not pin its carrier.
	 * @return whether a signal came
	 */
	boolean await(Deadline deadline) throws InterruptedException {
		this.lock.lock();
		try {
			while (!this.signalled) {
				long remaining = deadline.remainingNanos();
				if (remaining <= 0) {
					return false;
				}
				if (remaining == Long.MAX_VALUE) {
					this.signal.await();
				}
				else {
					this.signal.awaitNanos(remaining);
				}
			}
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

}
