package dev.zklock.integration;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.Lock;

import dev.zklock.ZkLockTemplate;

import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.util.Assert;

/**
 * Spring Integration's {@link ExpirableLockRegistry} on zklock: the lock of a key is the
 * exclusive lock of that key of a {@link ZkLockTemplate}, for Spring Integration's components
 * (aggregators, idempotent receivers) and {@code LockRegistryLeaderInitiator}, where the
 * application used {@code ZookeeperLockRegistry} or another registry.
 * <ul>
 * <li>Each lock is reentrant per thread, and only its holding thread may unlock it
 * ({@link IllegalMonitorStateException} otherwise), as {@link java.util.concurrent.locks.ReentrantLock}.
 * <li>The lock is bound to the instance's ZooKeeper session: a holder that dies releases it at
 * once, and nothing expires while it lives, so the registry needs no renewal (it is not a
 * {@code RenewableLockRegistry}). A lock lost with its session makes the holder's reentrant
 * {@code tryLock} return {@code false} (which ends a {@code LockRegistryLeaderInitiator}'s
 * leadership) and its last {@code unlock} throw {@link dev.zklock.LockLostException} after
 * releasing it.
 * <li>{@code tryLock} returns {@code false} when ZooKeeper is unreachable for its wait time;
 * {@code lockInterruptibly} waits until the lock is granted or the thread is interrupted.
 * <li>Lock objects are cached per key, at most {@link #setCacheCapacity(int) cacheCapacity} of
 * them (the least recently obtained is dropped first, never while it is locked);
 * {@link #expireUnusedOlderThan(long)} drops those unlocked and unused for a while.
 * </ul>
 *
 * @since 0.2.0
 */
public class ZkLockRegistry implements ExpirableLockRegistry<Lock> {

	private static final int DEFAULT_CAPACITY = 30_000;

	private final ZkLockTemplate template;

	private final Map<String, ZkRegistryLock> locks = new LinkedHashMap<>(16, 0.75F, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, ZkRegistryLock> eldest) {
			return size() > ZkLockRegistry.this.cacheCapacity && !eldest.getValue().isLocked();
		}

	};

	private volatile int cacheCapacity = DEFAULT_CAPACITY;

	/**
	 * Create a registry.
	 * @param template the template whose instance holds the locks
	 */
	public ZkLockRegistry(ZkLockTemplate template) {
		this.template = template;
	}

	/**
	 * Set how many lock objects are cached at most (30,000 by default).
	 * @param cacheCapacity the capacity
	 */
	public void setCacheCapacity(int cacheCapacity) {
		Assert.isTrue(cacheCapacity > 0, "cacheCapacity must be positive");
		this.cacheCapacity = cacheCapacity;
	}

	/**
	 * Return the lock of a key.
	 * @param lockKey the key, a {@link String}
	 * @return the lock, the same object for the same key while it is cached
	 */
	@Override
	public Lock obtain(Object lockKey) {
		Assert.isInstanceOf(String.class, lockKey, "The lock key must be a String");
		String key = (String) lockKey;
		synchronized (this.locks) {
			return this.locks.computeIfAbsent(key, (absent) -> new ZkRegistryLock(this.template, absent));
		}
	}

	/**
	 * Drop the cached lock objects that are unlocked and were last locked longer ago than the
	 * given age.
	 * @param age the age in milliseconds
	 */
	@Override
	public void expireUnusedOlderThan(long age) {
		long now = System.currentTimeMillis();
		synchronized (this.locks) {
			Iterator<ZkRegistryLock> iterator = this.locks.values().iterator();
			while (iterator.hasNext()) {
				ZkRegistryLock lock = iterator.next();
				if (now - lock.lastUsed() > age && !lock.isLocked()) {
					iterator.remove();
				}
			}
		}
	}

}
