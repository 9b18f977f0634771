package dev.zklock.curator;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.BaseClassForTests;
import org.apache.curator.utils.CloseableUtils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import dev.zklock.HeldLock;
import dev.zklock.ZkLockTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What {@link ZkInterProcessMutex} adds to, or must keep of, {@code InterProcessMutex} beyond
 * Curator's own tests: a release by a thread that does not hold it, the holder's fencing token, and
 * the interrupt of a waiter.
 */
class ZkInterProcessMutexTests extends BaseClassForTests {

	@Test
	void releaseByAThreadThatDoesNotHoldTheLockThrowsAndLeavesItHeld() throws Exception {
		withTemplate((template) -> {
			ZkInterProcessMutex mutex = new ZkInterProcessMutex(template, "orders");
			mutex.acquire();
			ExecutorService other = Executors.newSingleThreadExecutor();
			try {
				CompletableFuture<Throwable> failure = CompletableFuture.supplyAsync(() -> {
					try {
						mutex.release();
						return null;
					}
					catch (Exception ex) {
						return ex;
					}
				}, other);
				assertThat(failure.get(10, TimeUnit.SECONDS)).isInstanceOf(IllegalMonitorStateException.class)
					.hasMessageContaining("You do not own the lock: orders");
				assertThat(mutex.isOwnedByCurrentThread()).isTrue();
				assertThat(mutex.currentLock().isValid()).isTrue();
			}
			finally {
				other.shutdownNow();
			}
			mutex.release();
			assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(mutex::release);
		});
	}

	@Test
	void holderSeesAFencingTokenThatGrowsFromHolderToHolder() throws Exception {
		withTemplate((template) -> {
			ZkInterProcessMutex mutex = new ZkInterProcessMutex(template, "orders");
			assertThat(mutex.currentLock()).isNull();
			mutex.acquire();
			HeldLock first = mutex.currentLock();
			long firstToken = first.fencingToken();
			mutex.release();
			assertThat(first.isValid()).isFalse();
			mutex.acquire();
			assertThat(mutex.currentLock().fencingToken()).isGreaterThan(firstToken);
			mutex.release();
		});
	}

	@Test
	void excludesCuratorsReadWriteLockOnTheSamePath() throws Exception {
		withTemplate((template) -> {
			CuratorFramework curator = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(1));
			curator.start();
			try {
				ZkInterProcessMutex mutex = new ZkInterProcessMutex(template, "orders");
				InterProcessReadWriteLock curatorLock = new InterProcessReadWriteLock(curator, "/locks/orders");
				mutex.acquire();
				assertThat(curatorLock.writeLock().acquire(200, TimeUnit.MILLISECONDS)).isFalse();
				assertThat(curatorLock.readLock().acquire(200, TimeUnit.MILLISECONDS)).isFalse();
				mutex.release();
				assertThat(curatorLock.writeLock().acquire(10, TimeUnit.SECONDS)).isTrue();
				assertThat(mutex.acquire(200, TimeUnit.MILLISECONDS)).isFalse();
				curatorLock.writeLock().release();
				assertThat(mutex.acquire(10, TimeUnit.SECONDS)).isTrue();
				mutex.release();
			}
			finally {
				CloseableUtils.closeQuietly(curator);
			}
		});
	}

	@Test
	void aWaiterInterruptedGivesUpAndHoldsNothing() throws Exception {
		withTemplate((template) -> {
			ZkInterProcessMutex holder = new ZkInterProcessMutex(template, "orders");
			ZkInterProcessMutex waiter = new ZkInterProcessMutex(template, "orders");
			holder.acquire();
			CompletableFuture<Throwable> outcome = new CompletableFuture<>();
			Thread thread = new Thread(() -> {
				try {
					waiter.acquire();
					outcome.complete(null);
				}
				catch (Exception ex) {
					outcome.complete(ex);
				}
			});
			thread.start();
			Awaitility.await().atMost(Duration.ofSeconds(10))
				.until(() -> !template.waitingCalls().isEmpty() || thread.getState() == Thread.State.WAITING);
			thread.interrupt();
			assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
			assertThat(waiter.isAcquiredInThisProcess()).isFalse();
			holder.release();
			assertThat(waiter.acquire(10, TimeUnit.SECONDS)).isTrue();
			waiter.release();
		});
	}

	private void withTemplate(TemplateWork work) throws Exception {
		CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(1));
		client.start();
		try (ZkLockTemplate template = new ZkLockTemplate(client, "/locks", Duration.ofSeconds(10), false)) {
			work.run(template);
		}
		finally {
			CloseableUtils.closeQuietly(client);
		}
	}

	@FunctionalInterface
	private interface TemplateWork {

		void run(ZkLockTemplate template) throws Exception;

	}

}
