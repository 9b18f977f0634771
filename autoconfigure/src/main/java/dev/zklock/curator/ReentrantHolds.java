package dev.zklock.curator;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.ReleasableLock;
import dev.zklock.ZkLockTemplate;

/**
 * The holds of one Curator-style lock object, per thread, as Curator's {@code InterProcessMutex}
 * counts them: a thread that holds the lock may take it again, each acquisition balanced by a
 * release on the same thread, and the lock is released to others with the last one. A thread
 * that holds the exclusive lock may take the shared one too (a downgrade); one that holds only
 * the shared lock may not take the exclusive one (an upgrade would wait for itself).
 * <p>
 * One {@link ReleasableLock} of the key stands for every hold of a thread: a downgraded thread
 * keeps its exclusive grant until its last hold, shared or exclusive, is released, so the key
 * stays excluded from writers (and from other readers) until then.
 */
final class ReentrantHolds {

	private final ZkLockTemplate template;

	private final String key;

	private final Map<Thread, Holding> holdings = new ConcurrentHashMap<>();

	ReentrantHolds(ZkLockTemplate template, String key) {
		this.template = template;
		this.key = key;
	}

	String key() {
		return this.key;
	}

	/**
	 * Acquire the lock in the given mode for the current thread.
	 * @param mode the mode
	 * @param waitTime how long to wait; negative to wait until granted
	 * @return whether the lock was obtained in time
	 */
	boolean acquire(LockMode mode, Duration waitTime) throws InterruptedException {
		Holding holding = this.holdings.get(Thread.currentThread());
		if (holding != null) {
			if (mode == LockMode.EXCLUSIVE && holding.exclusive == 0) {
				if (waitTime.isNegative()) {
					throw new IllegalStateException("Cannot take the write lock on key '" + this.key
							+ "': this thread holds its read lock, and upgrading would wait forever. "
							+ "Release the read lock first");
				}
				return false;
			}
			holding.add(mode);
			return true;
		}
		ReleasableLock lock = this.template.acquire(this.key, mode, waitTime);
		if (lock == null) {
			return false;
		}
		Holding taken = new Holding(lock);
		taken.add(mode);
		this.holdings.put(Thread.currentThread(), taken);
		return true;
	}

	/**
	 * Release one hold of the current thread in the given mode; the last hold releases the lock,
	 * and waits until it is released.
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock so
	 */
	void release(LockMode mode) {
		Thread thread = Thread.currentThread();
		Holding holding = this.holdings.get(thread);
		if (holding == null || holding.count(mode) == 0) {
			throw new IllegalMonitorStateException("You do not own the lock: " + this.key);
		}
		if (holding.remove(mode)) {
			this.holdings.remove(thread);
			try {
				holding.lock.release().join();
			}
			catch (CompletionException ex) {
				// A lock lost with its session is released as silently as Curator's recipe
				// releases a node that went with its session; the loss was logged and told to
				// the lost-lock listener when it happened.
				if (!(ex.getCause() instanceof LockLostException)) {
					throw (ex.getCause() instanceof RuntimeException cause) ? cause : ex;
				}
			}
		}
	}

	/**
	 * Return whether any thread of this process holds the lock in the given mode through this
	 * object.
	 */
	boolean isHeld(LockMode mode) {
		return this.holdings.values().stream().anyMatch((holding) -> holding.count(mode) > 0);
	}

	boolean isHeldByCurrentThread(LockMode mode) {
		Holding holding = this.holdings.get(Thread.currentThread());
		return holding != null && holding.count(mode) > 0;
	}

	/**
	 * Return the lock the current thread holds through this object.
	 */
	@Nullable HeldLock currentLock() {
		Holding holding = this.holdings.get(Thread.currentThread());
		return (holding != null) ? holding.lock.lock() : null;
	}

	/**
	 * One thread's holds: read and written by that thread only, counted by others.
	 */
	private static final class Holding {

		private final ReleasableLock lock;

		private volatile int exclusive;

		private volatile int shared;

		Holding(ReleasableLock lock) {
			this.lock = lock;
		}

		int count(LockMode mode) {
			return (mode == LockMode.EXCLUSIVE) ? this.exclusive : this.shared;
		}

		void add(LockMode mode) {
			if (mode == LockMode.EXCLUSIVE) {
				this.exclusive++;
			}
			else {
				this.shared++;
			}
		}

		/**
		 * Remove one hold.
		 * @return whether it was the last
		 */
		boolean remove(LockMode mode) {
			if (mode == LockMode.EXCLUSIVE) {
				this.exclusive--;
			}
			else {
				this.shared--;
			}
			return this.exclusive == 0 && this.shared == 0;
		}

	}

}
