package dev.zklock.integration;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;
import dev.zklock.ReleasableLock;
import dev.zklock.ZkLockException;
import dev.zklock.ZkLockTemplate;

/**
 * The lock of one key of a {@link ZkLockRegistry}: a local {@link ReentrantLock} says which
 * thread of the process holds it and how often, and the key's zklock lock, taken by the
 * outermost acquisition and released by the last unlock, excludes the other instances (and the
 * other lock objects of the key in this one).
 */
final class ZkRegistryLock implements Lock {

	private static final Duration FOREVER = Duration.ofMillis(-1);

	private final ZkLockTemplate template;

	private final String key;

	private final ReentrantLock localLock = new ReentrantLock();

	private @Nullable ReleasableLock held;

	private volatile long lastUsed = System.currentTimeMillis();

	ZkRegistryLock(ZkLockTemplate template, String key) {
		this.template = template;
		this.key = key;
	}

	@Override
	public void lock() {
		this.localLock.lock();
		if (this.localLock.getHoldCount() > 1) {
			return;
		}
		boolean interrupted = false;
		try {
			while (this.held == null) {
				try {
					this.held = this.template.acquire(this.key, LockMode.EXCLUSIVE, FOREVER);
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		catch (RuntimeException | Error ex) {
			this.localLock.unlock();
			throw ex;
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
		this.lastUsed = System.currentTimeMillis();
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		this.localLock.lockInterruptibly();
		if (this.localLock.getHoldCount() > 1) {
			return;
		}
		try {
			this.held = this.template.acquire(this.key, LockMode.EXCLUSIVE, FOREVER);
		}
		finally {
			if (this.held == null) {
				this.localLock.unlock();
			}
		}
		this.lastUsed = System.currentTimeMillis();
	}

	@Override
	public boolean tryLock() {
		try {
			return tryLock(0, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		long deadline = System.nanoTime() + unit.toNanos(Math.max(0, time));
		if (!this.localLock.tryLock(time, unit)) {
			return false;
		}
		if (this.localLock.getHoldCount() > 1) {
			ReleasableLock outer = this.held;
			if (outer != null && outer.isValid()) {
				return true;
			}
			// The key's lock was lost with the session: the holder is told so, not granted again.
			this.localLock.unlock();
			return false;
		}
		try {
			this.held = this.template.acquire(this.key, LockMode.EXCLUSIVE,
					Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
		}
		catch (ZkLockException ex) {
			// ZooKeeper was unreachable for the wait: not obtained in time.
		}
		finally {
			if (this.held == null) {
				this.localLock.unlock();
			}
		}
		if (this.held == null) {
			return false;
		}
		this.lastUsed = System.currentTimeMillis();
		return true;
	}

	/**
	 * Release one hold of the current thread; the last releases the key's lock.
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 * @throws dev.zklock.LockLostException if the key's lock was lost or in doubt before this
	 * last release (it is released all the same)
	 */
	@Override
	public void unlock() {
		if (!this.localLock.isHeldByCurrentThread()) {
			throw new IllegalMonitorStateException("You do not own the lock on key '" + this.key + "'");
		}
		if (this.localLock.getHoldCount() > 1) {
			this.localLock.unlock();
			return;
		}
		ReleasableLock releasing = this.held;
		this.held = null;
		this.localLock.unlock();
		if (releasing != null) {
			try {
				releasing.release().join();
			}
			catch (CompletionException ex) {
				throw (ex.getCause() instanceof RuntimeException cause) ? cause : ex;
			}
		}
	}

	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("Conditions are not supported by zklock's registry locks");
	}

	boolean isLocked() {
		return this.localLock.isLocked();
	}

	long lastUsed() {
		return this.lastUsed;
	}

	@Override
	public String toString() {
		return "ZkRegistryLock[" + this.key + (isLocked() ? ", locked]" : "]");
	}

}
