package dev.zklock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.BaseClassForTests;
import org.apache.curator.utils.CloseableUtils;
import org.junit.jupiter.api.Test;

import dev.zklock.ZkLockTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The read-write scenarios of Curator's {@code TestInterProcessReadWriteLock} (curator-recipes
 * 5.9.0), ported to {@link ZkInterProcessReadWriteLock}.
 * <p>
 * What was changed, and why:
 * <ul>
 * <li>{@code new InterProcessReadWriteLock(client, "/lock")} became a
 * {@code ZkInterProcessReadWriteLock} on the key {@code lock} of a template made for the client
 * (one instance per client, as an application has): zklock locks keys under a base path.
 * <li>{@code TestCleanState.closeAndTestClean(client)} became closing the template and the client:
 * that helper checks Curator's internal watcher bookkeeping, which is Curator's, not the lock's.
 * <li>testContendingDowngrading: Curator's version leaves the downgraded read lock and the blocked
 * writer as they are when it ends; here the read lock is released at the end and the writer must
 * then get the lock (it was blocked by the downgraded read lock, not lost). Its 20 ms look at the
 * writer stays, and is followed by a second look of a second: a writer let in by the write lock's
 * release would not be caught by 20 ms alone on a loaded machine.
 * <li>testThatUpgradingIsDisallowed: as in Curator, {@code acquire(5, SECONDS)} of the write lock
 * returns {@code false}; zklock answers at once instead of after the five seconds, and
 * {@code acquire()} without a time throws instead of waiting for itself forever (a case added).
 * <li>Not ported: testGetParticipantNodes, testSetNodeData and testLockPath, which read Curator's
 * own nodes and their data ({@code getParticipantNodes}, {@code getLockPath}); zklock's nodes and
 * their owner data are described in docs/lock-core.md.
 * </ul>
 */
class ReadWriteLockPortTests extends BaseClassForTests {

	private static final String BASE_PATH = "/rw";

	@Test
	void testThatUpgradingIsDisallowed() throws Exception {
		try (Instance instance = new Instance()) {
			ZkInterProcessReadWriteLock lock = instance.lock();
			lock.readLock().acquire();
			assertThat(lock.writeLock().acquire(5, TimeUnit.SECONDS)).isFalse();
			assertThatIllegalStateException().isThrownBy(() -> lock.writeLock().acquire())
				.withMessageContaining("upgrading");
			lock.readLock().release();
		}
	}

	@Test
	void testThatDowngradingRespectsThreads() throws Exception {
		try (Instance instance = new Instance()) {
			ZkInterProcessReadWriteLock lock = instance.lock();
			ExecutorService t1 = Executors.newSingleThreadExecutor();
			ExecutorService t2 = Executors.newSingleThreadExecutor();
			try {
				CountDownLatch latch = new CountDownLatch(1);
				CountDownLatch releaseLatch = new CountDownLatch(1);
				Future<Object> f1 = t1.submit(() -> {
					lock.writeLock().acquire();
					latch.countDown();
					try {
						releaseLatch.await();
					}
					finally {
						lock.writeLock().release();
					}
					return null;
				});
				Future<Object> f2 = t2.submit(() -> {
					assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
					assertThat(lock.readLock().acquire(5, TimeUnit.SECONDS)).isFalse();
					return null;
				});
				f2.get();
				releaseLatch.countDown();
				f1.get();
			}
			finally {
				t1.shutdownNow();
				t2.shutdownNow();
			}
		}
	}

	@Test
	void testDowngrading() throws Exception {
		try (Instance instance = new Instance()) {
			ZkInterProcessReadWriteLock lock = instance.lock();
			lock.writeLock().acquire();
			assertThat(lock.readLock().acquire(5, TimeUnit.SECONDS)).isTrue();
			lock.writeLock().release();
			assertThat(lock.readLock().isAcquiredInThisProcess()).isTrue();
			assertThat(lock.writeLock().isAcquiredInThisProcess()).isFalse();
			lock.readLock().release();
			assertThat(lock.readLock().isAcquiredInThisProcess()).isFalse();
		}
	}

	@Test
	void testContendingDowngrading() throws Exception {
		ExecutorService executor = Executors.newCachedThreadPool();
		try (Instance instance1 = new Instance(); Instance instance2 = new Instance()) {
			ZkInterProcessReadWriteLock lock1 = instance1.lock();
			lock1.writeLock().acquire();
			CountDownLatch ready = new CountDownLatch(1);
			ZkInterProcessReadWriteLock lock2 = instance1.lock();
			Future<?> writeAcquire = executor.submit(() -> {
				ready.countDown();
				lock2.writeLock().acquire();
				lock2.writeLock().release();
				return null;
			});
			assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
			// Let lock2 have a chance to ask for the write lock before the downgrade.
			Thread.sleep(20);
			assertThat(lock1.readLock().acquire(5, TimeUnit.SECONDS)).isTrue();
			lock1.writeLock().release();
			// The read lock is still held: the other write lock must stay blocked.
			assertThatExceptionOfType(TimeoutException.class)
				.isThrownBy(() -> writeAcquire.get(20, TimeUnit.MILLISECONDS));
			assertThatExceptionOfType(TimeoutException.class)
				.isThrownBy(() -> writeAcquire.get(1, TimeUnit.SECONDS));
			lock1.readLock().release();
			writeAcquire.get(10, TimeUnit.SECONDS);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void testBasic() throws Exception {
		int concurrency = 8;
		int iterations = 100;
		Random random = new Random();
		AtomicInteger concurrentCount = new AtomicInteger();
		AtomicInteger maxConcurrentCount = new AtomicInteger();
		AtomicInteger writeCount = new AtomicInteger();
		AtomicInteger readCount = new AtomicInteger();
		List<Future<Void>> futures = new ArrayList<>();
		ExecutorService service = Executors.newCachedThreadPool();
		try {
			for (int c = 0; c < concurrency; c++) {
				futures.add(service.submit(() -> {
					try (Instance instance = new Instance()) {
						ZkInterProcessReadWriteLock lock = instance.lock();
						for (int i = 0; i < iterations; i++) {
							if (random.nextInt(100) < 10) {
								doLocking(lock.writeLock(), concurrentCount, maxConcurrentCount, random, 1);
								writeCount.incrementAndGet();
							}
							else {
								doLocking(lock.readLock(), concurrentCount, maxConcurrentCount, random,
										Integer.MAX_VALUE);
								readCount.incrementAndGet();
							}
						}
					}
					return null;
				}));
			}
			for (Future<Void> future : futures) {
				future.get(2, TimeUnit.MINUTES);
			}
		}
		finally {
			service.shutdownNow();
		}
		assertThat(writeCount.get()).isPositive();
		assertThat(readCount.get()).isPositive();
		assertThat(maxConcurrentCount.get()).isGreaterThan(1);
	}

	private void doLocking(InterProcessLock lock, AtomicInteger concurrentCount, AtomicInteger maxConcurrentCount,
			Random random, int maxAllowed) throws Exception {
		try {
			assertThat(lock.acquire(10, TimeUnit.SECONDS)).isTrue();
			int localConcurrentCount;
			synchronized (this) {
				localConcurrentCount = concurrentCount.incrementAndGet();
				if (localConcurrentCount > maxConcurrentCount.get()) {
					maxConcurrentCount.set(localConcurrentCount);
				}
			}
			assertThat(localConcurrentCount).isLessThanOrEqualTo(maxAllowed);
			Thread.sleep(random.nextInt(9) + 1);
		}
		finally {
			synchronized (this) {
				concurrentCount.decrementAndGet();
				lock.release();
			}
		}
	}

	/**
	 * A client and the template of its instance.
	 */
	private final class Instance implements AutoCloseable {

		private final CuratorFramework client;

		private final ZkLockTemplate template;

		Instance() {
			this.client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(1));
			this.client.start();
			this.template = new ZkLockTemplate(this.client, BASE_PATH, Duration.ofSeconds(10), false);
		}

		ZkInterProcessReadWriteLock lock() {
			return new ZkInterProcessReadWriteLock(this.template, "lock");
		}

		@Override
		public void close() {
			this.template.close();
			CloseableUtils.closeQuietly(this.client);
		}

	}

}
