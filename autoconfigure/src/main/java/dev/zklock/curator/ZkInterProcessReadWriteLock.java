package dev.zklock.curator;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;

/**
 * Curator's {@code InterProcessReadWriteLock} on zklock: the key's SHARED lock as the read lock,
 * its EXCLUSIVE lock as the write lock. The nodes are named as Curator's read-write lock names
 * them, so both recipes exclude each other on the same path.
 * <ul>
 * <li>Reentrant per thread, as Curator's: each acquisition balanced by a release on the same
 * thread, a release by a thread that does not hold the lock throws
 * {@link IllegalMonitorStateException}.
 * <li>A reader cannot upgrade: the write lock's {@code acquire(time, unit)} returns {@code false}
 * at once for a thread that holds only the read lock, and {@code acquire()} throws
 * {@link IllegalStateException} instead of waiting for itself forever.
 * <li>A writer can downgrade: the thread that holds the write lock takes the read lock at once,
 * and may then release the write lock. Unlike Curator's recipe, which swaps its write node for
 * the read node, the thread keeps its exclusive grant until it has released the read lock too:
 * writers stay excluded as with Curator, and so do other readers until then.
 * </ul>
 *
 * @since 0.2.0
 */
public class ZkInterProcessReadWriteLock {

	private final ReentrantHolds holds;

	private final ModeLock readLock;

	private final ModeLock writeLock;

	/**
	 * Create a read-write lock on a key.
	 * @param template the template whose instance holds the lock
	 * @param key the key
	 */
	public ZkInterProcessReadWriteLock(ZkLockTemplate template, String key) {
		this.holds = new ReentrantHolds(template, key);
		this.readLock = new ModeLock(this.holds, LockMode.SHARED);
		this.writeLock = new ModeLock(this.holds, LockMode.EXCLUSIVE);
	}

	/**
	 * Return the lock used for reading.
	 * @return the read lock
	 */
	public ModeLock readLock() {
		return this.readLock;
	}

	/**
	 * Return the lock used for writing.
	 * @return the write lock
	 */
	public ModeLock writeLock() {
		return this.writeLock;
	}

	/**
	 * The read or the write lock of a {@link ZkInterProcessReadWriteLock}.
	 */
	public static final class ModeLock implements InterProcessLock {

		private final ReentrantHolds holds;

		private final LockMode mode;

		ModeLock(ReentrantHolds holds, LockMode mode) {
			this.holds = holds;
			this.mode = mode;
		}

		@Override
		public void acquire() throws Exception {
			ModeLocks.acquire(this.holds, this.mode);
		}

		@Override
		public boolean acquire(long time, TimeUnit unit) throws Exception {
			return ModeLocks.acquire(this.holds, this.mode, time, unit);
		}

		@Override
		public void release() throws Exception {
			this.holds.release(this.mode);
		}

		@Override
		public boolean isAcquiredInThisProcess() {
			return this.holds.isHeld(this.mode);
		}

		/**
		 * Return whether the current thread holds this lock.
		 * @return whether it does
		 */
		public boolean isOwnedByCurrentThread() {
			return this.holds.isHeldByCurrentThread(this.mode);
		}

		/**
		 * Return the lock the current thread holds on the key (read or write), with its fencing
		 * token and validity.
		 * @return the lock, or {@code null} if the current thread holds neither
		 */
		public @Nullable HeldLock currentLock() {
			return this.holds.currentLock();
		}

	}

}
