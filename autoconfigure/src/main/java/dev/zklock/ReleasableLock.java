package dev.zklock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

/**
 * A lock held until its holder releases it, rather than for the length of a callback: what
 * {@link ZkLockTemplate#acquire} gives to code written against another library's lock interface
 * (Curator's {@code InterProcessLock}, ShedLock's {@code LockProvider}, Spring Integration's
 * {@code LockRegistry}). It belongs to no thread: any thread may release it, once. It is not
 * reentrant: a second acquisition of the key waits for this one like any other call's.
 * <p>
 * The lock node belongs to the instance, as for every call of the template: local handoff, kept
 * locks, fencing tokens and the loss of the lock with the session are the same.
 *
 * @since 0.2.0
 */
public final class ReleasableLock {

	private final LockLease lease;

	private final AtomicBoolean released = new AtomicBoolean();

	ReleasableLock(LockLease lease) {
		this.lease = lease;
	}

	/**
	 * Return the lock as a call sees it: its key, mode, fencing token and validity.
	 * @return the held lock
	 */
	public HeldLock lock() {
		return this.lease.lock();
	}

	/**
	 * Return whether the lock is certainly still held: not released, and its session neither
	 * suspended nor lost (see {@link HeldLock#isValid()}).
	 * @return whether the lock is valid
	 */
	public boolean isValid() {
		return !this.released.get() && this.lease.lock().isValid();
	}

	/**
	 * Return whether {@link #release()} was called.
	 * @return whether the lock was released
	 */
	public boolean isReleased() {
		return this.released.get();
	}

	/**
	 * Release the lock, without blocking.
	 * @return completed on the template's executor once the lock is released: normally if it was
	 * held throughout, with a {@link LockLostException} if it was lost or in doubt meanwhile
	 * @throws IllegalStateException if the lock was released already
	 */
	public CompletableFuture<@Nullable Void> release() {
		if (!this.released.compareAndSet(false, true)) {
			throw new IllegalStateException("The lock on key '" + this.lease.lock().key() + "' was released already");
		}
		return this.lease.end(null);
	}

	@Override
	public String toString() {
		return "ReleasableLock[" + this.lease.lock().key() + ", " + this.lease.lock().mode()
				+ (this.released.get() ? ", released]" : "]");
	}

}
