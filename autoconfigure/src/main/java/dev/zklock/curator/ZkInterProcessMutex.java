package dev.zklock.curator;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;

/**
 * Curator's {@link InterProcessLock} on zklock: a drop-in for {@code InterProcessMutex} where code
 * is written against the interface. The lock of a key of a {@link ZkLockTemplate}, held
 * exclusively.
 * <ul>
 * <li>Reentrant per thread and per object, as {@code InterProcessMutex}: each
 * {@link #acquire()} is balanced by a {@link #release()} on the same thread; a release by a
 * thread that does not hold the lock throws {@link IllegalMonitorStateException}. Two objects on
 * the same key exclude each other, also on one thread.
 * <li>The lock node belongs to the template's instance, not to a thread: local handoff passes the
 * key from a releasing thread to a waiting one of the same instance without a new node, and
 * {@link #currentLock()} gives the holder's fencing token.
 * <li>The key names a node under the template's base path (not a path of its own, as Curator's
 * recipe takes): {@code new InterProcessMutex(client, "/locks/orders")} becomes
 * {@code new ZkInterProcessMutex(template, "orders")} with the template's base path
 * {@code /locks}.
 * <li>A lock lost with the session is released silently, as Curator's recipe releases a node
 * that went with its session: the loss is logged when it happens and told to the template's
 * lost-lock listener; {@link #currentLock()}{@code .isValid()} tells the holder before it
 * releases.
 * </ul>
 *
 * @since 0.2.0
 * @see ZkInterProcessReadWriteLock
 */
public class ZkInterProcessMutex implements InterProcessLock {

	private final ReentrantHolds holds;

	/**
	 * Create a mutex on a key.
	 * @param template the template whose instance holds the lock
	 * @param key the key
	 */
	public ZkInterProcessMutex(ZkLockTemplate template, String key) {
		this.holds = new ReentrantHolds(template, key);
	}

	/**
	 * Acquire the lock, waiting until it is available.
	 * @throws InterruptedException if interrupted while waiting (nothing is held then)
	 * @throws dev.zklock.ZkLockException if ZooKeeper is unreachable
	 */
	@Override
	public void acquire() throws Exception {
		ModeLocks.acquire(this.holds, LockMode.EXCLUSIVE);
	}

	/**
	 * Acquire the lock, waiting up to the given time.
	 * @param time the time to wait; zero or less to try once
	 * @param unit the unit of the time
	 * @return whether the lock was obtained
	 */
	@Override
	public boolean acquire(long time, TimeUnit unit) throws Exception {
		return ModeLocks.acquire(this.holds, LockMode.EXCLUSIVE, time, unit);
	}

	/**
	 * Perform one release of the lock: the last release of the thread's holds releases it.
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 */
	@Override
	public void release() throws Exception {
		this.holds.release(LockMode.EXCLUSIVE);
	}

	/**
	 * Return whether a thread of this process holds the lock through this object.
	 * @return whether the lock is held
	 */
	@Override
	public boolean isAcquiredInThisProcess() {
		return this.holds.isHeld(LockMode.EXCLUSIVE);
	}

	/**
	 * Return whether the current thread holds the lock through this object.
	 * @return whether it does
	 */
	public boolean isOwnedByCurrentThread() {
		return this.holds.isHeldByCurrentThread(LockMode.EXCLUSIVE);
	}

	/**
	 * Return the lock the current thread holds, with its fencing token and validity.
	 * @return the lock, or {@code null} if the current thread does not hold it
	 */
	public @Nullable HeldLock currentLock() {
		return this.holds.currentLock();
	}

	/**
	 * Return the key.
	 * @return the key
	 */
	public String getKey() {
		return this.holds.key();
	}

}
