package dev.zklock.benchmarks.workload;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.benchmarks.library.CuratorClients;
import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.library.SkippingLocks;

/**
 * Another instance holding a key's lock, with its own session, on a thread of its own, until
 * closed; at most for an hour.
 */
final class LockHolder implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration MAX_HOLD = Duration.ofHours(1);

	private final CuratorFramework client;

	private final SkippingLocks locks;

	private final CountDownLatch held = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private final AtomicReference<Throwable> failure = new AtomicReference<>();

	private final Thread thread;

	private LockHolder(String connectString, Library library, String key) {
		this.client = CuratorClients.connect(connectString);
		this.locks = library.skipping(this.client);
		this.thread = new Thread(() -> hold(key), "lock-holder-" + library.id());
		this.thread.setDaemon(true);
	}

	/**
	 * Take the key's lock in another session and hold it until {@link #close()}.
	 * @param connectString the ZooKeeper servers
	 * @param library the library to take it with
	 * @param key the key
	 * @return the holder, holding the lock
	 * @throws IllegalStateException if the lock could not be taken
	 */
	static LockHolder hold(String connectString, Library library, String key) {
		LockHolder holder = new LockHolder(connectString, library, key);
		holder.thread.start();
		try {
			if (!holder.held.await(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				holder.close();
				throw new IllegalStateException("Could not take the lock on " + key + " to hold it",
						holder.failure.get());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			holder.close();
			throw new IllegalStateException("Interrupted while taking the lock to hold", ex);
		}
		return holder;
	}

	private void hold(String key) {
		try {
			boolean ran = this.locks.runIfFree(key, () -> {
				this.held.countDown();
				awaitRelease();
			});
			if (!ran) {
				this.failure.set(new IllegalStateException("The lock on " + key + " was not free"));
			}
		}
		catch (Throwable ex) {
			this.failure.set(ex);
		}
	}

	private void awaitRelease() {
		try {
			this.release.await(MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		this.release.countDown();
		try {
			this.thread.join(START_TIMEOUT.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		ZooKeeperTarget.closeAll(this.locks, this.client);
	}

}
