package dev.zklock.sample;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;

/**
 * Holds a lock on a thread of its own, as another caller would, until closed.
 */
final class LockHolder implements AutoCloseable {

	private final CountDownLatch held = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private final ExecutorService thread = Executors.newSingleThreadExecutor();

	private final Future<?> holding;

	private LockHolder(ZkLockTemplate locks, String key, LockMode mode) {
		this.holding = this.thread.submit(() -> locks.execute(key, mode, null, (lock) -> {
			this.held.countDown();
			return this.release.await(60, TimeUnit.SECONDS);
		}));
	}

	/**
	 * Take the lock and return once it is held.
	 */
	static LockHolder hold(ZkLockTemplate locks, String key, LockMode mode) throws Exception {
		LockHolder holder = new LockHolder(locks, key, mode);
		if (!holder.held.await(30, TimeUnit.SECONDS)) {
			holder.close();
			throw new IllegalStateException("Could not take the lock on '" + key + "' in time");
		}
		return holder;
	}

	@Override
	public void close() throws Exception {
		this.release.countDown();
		try {
			this.holding.get(30, TimeUnit.SECONDS);
		}
		finally {
			this.thread.shutdownNow();
		}
	}

}
