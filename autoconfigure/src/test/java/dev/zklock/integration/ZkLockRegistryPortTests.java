package dev.zklock.integration;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.zklock.ZkLockTemplate;

import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Integration's {@code ZkLockRegistryTests} (spring-integration-zookeeper), ported to
 * {@link ZkLockRegistry}.
 * <p>
 * What was changed, and why:
 * <ul>
 * <li>{@code new ZookeeperLockRegistry(client)} became a {@code ZkLockRegistry} on a template made
 * for the client; two registries on one client (testTwoThreadsDifferentRegistries) share it, as
 * two registries of one application would. {@code destroy()} became closing the template.
 * <li>The cached locks are read from the registry's {@code locks} field with Spring's
 * {@code ReflectionTestUtils} instead of Spring Integration's {@code TestUtils}; keys are the lock
 * keys, not paths ({@code toKey} dropped).
 * <li>A thread that does not hold the lock gets {@link IllegalMonitorStateException} from
 * {@code unlock()} itself, as from a {@code ReentrantLock}; Spring Integration's registry wraps
 * Curator's in a {@code MessagingException}, whose cause the original tests check.
 * <li>voidLockFailsWhenServerDown: unchanged but for the registry (its own server and client);
 * its bound on {@code tryLock}'s time stays.
 * <li>Not ported: testLockWithBoundedStrategy, which is about a {@code KeyToPathStrategy} mapping
 * every key to one path (zklock maps each key to its own node); concurrentObtainRemoveOrderTest
 * and concurrentObtainAccessRemoveOrderTest, about the order of the cache's evictions under
 * threads (setCapacityTest and concurrentObtainCapacityTest, ported, cover the cache).
 * </ul>
 */
class ZkLockRegistryPortTests {

	private static TestingServer server;

	private CuratorFramework client;

	private ZkLockTemplate template;

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer();
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@BeforeEach
	void connect() {
		this.client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
		this.client.start();
		this.template = new ZkLockTemplate(this.client, "/SpringIntegration-LockRegistry", Duration.ofSeconds(10),
				false);
	}

	@AfterEach
	void close() {
		this.template.close();
		this.client.close();
	}

	@Test
	void testLock() throws Exception {
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		for (int i = 0; i < 10; i++) {
			Lock lock = registry.obtain("orders");
			lock.lock();
			try {
				assertThat(getRegistryLocks(registry)).hasSize(1);
			}
			finally {
				lock.unlock();
			}
		}
		Thread.sleep(10);
		registry.expireUnusedOlderThan(0);
		assertThat(getRegistryLocks(registry)).isEmpty();
	}

	@Test
	void testLockInterruptibly() throws Exception {
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		for (int i = 0; i < 10; i++) {
			Lock lock = registry.obtain("orders");
			lock.lockInterruptibly();
			try {
				assertThat(getRegistryLocks(registry)).hasSize(1);
			}
			finally {
				lock.unlock();
			}
		}
	}

	@Test
	void testReentrantLock() {
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		for (int i = 0; i < 10; i++) {
			Lock lock1 = registry.obtain("orders");
			lock1.lock();
			try {
				Lock lock2 = registry.obtain("orders");
				assertThat(lock2).isSameAs(lock1);
				lock2.lock();
				lock2.unlock();
			}
			finally {
				lock1.unlock();
			}
		}
	}

	@Test
	void testReentrantLockInterruptibly() throws Exception {
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		for (int i = 0; i < 10; i++) {
			Lock lock1 = registry.obtain("orders");
			lock1.lockInterruptibly();
			try {
				Lock lock2 = registry.obtain("orders");
				assertThat(lock2).isSameAs(lock1);
				lock2.lockInterruptibly();
				lock2.unlock();
			}
			finally {
				lock1.unlock();
			}
		}
	}

	@Test
	void testTwoLocks() throws Exception {
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		for (int i = 0; i < 10; i++) {
			Lock lock1 = registry.obtain("orders");
			lock1.lockInterruptibly();
			try {
				Lock lock2 = registry.obtain("invoices");
				assertThat(lock2).isNotSameAs(lock1);
				lock2.lockInterruptibly();
				lock2.unlock();
			}
			finally {
				lock1.unlock();
			}
		}
	}

	@Test
	void testTwoThreadsSecondFailsToGetLock() throws Exception {
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		Lock lock1 = registry.obtain("orders");
		lock1.lockInterruptibly();
		AtomicBoolean locked = new AtomicBoolean();
		CountDownLatch latch = new CountDownLatch(1);
		ExecutorService executorService = Executors.newSingleThreadExecutor();
		Future<Object> result = executorService.submit(() -> {
			Lock lock2 = registry.obtain("orders");
			locked.set(lock2.tryLock(200, TimeUnit.MILLISECONDS));
			latch.countDown();
			try {
				lock2.unlock();
			}
			catch (IllegalMonitorStateException ex) {
				return ex;
			}
			return null;
		});
		assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(locked.get()).isFalse();
		lock1.unlock();
		Object imse = result.get(10, TimeUnit.SECONDS);
		assertThat(imse).isInstanceOf(IllegalMonitorStateException.class);
		assertThat(((Exception) imse).getMessage()).contains("You do not own");
		executorService.shutdown();
	}

	@Test
	void testTwoThreads() throws Exception {
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		twoThreads(registry, registry);
	}

	@Test
	void testTwoThreadsDifferentRegistries() throws Exception {
		twoThreads(new ZkLockRegistry(this.template), new ZkLockRegistry(this.template));
	}

	private void twoThreads(ZkLockRegistry registry1, ZkLockRegistry registry2) throws Exception {
		Lock lock1 = registry1.obtain("orders");
		AtomicBoolean locked = new AtomicBoolean();
		CountDownLatch latch1 = new CountDownLatch(1);
		CountDownLatch latch2 = new CountDownLatch(1);
		CountDownLatch latch3 = new CountDownLatch(1);
		lock1.lockInterruptibly();
		ExecutorService executorService = Executors.newSingleThreadExecutor();
		executorService.execute(() -> {
			Lock lock2 = registry2.obtain("orders");
			try {
				latch1.countDown();
				lock2.lockInterruptibly();
				latch2.await(10, TimeUnit.SECONDS);
				locked.set(true);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				lock2.unlock();
				latch3.countDown();
			}
		});
		assertThat(latch1.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(locked.get()).isFalse();
		lock1.unlock();
		latch2.countDown();
		assertThat(latch3.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(locked.get()).isTrue();
		executorService.shutdown();
	}

	@Test
	void testTwoThreadsWrongOneUnlocks() throws Exception {
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		Lock lock = registry.obtain("orders");
		lock.lockInterruptibly();
		AtomicBoolean locked = new AtomicBoolean();
		CountDownLatch latch = new CountDownLatch(1);
		ExecutorService executorService = Executors.newSingleThreadExecutor();
		Future<Object> result = executorService.submit(() -> {
			try {
				lock.unlock();
			}
			catch (Exception ex) {
				latch.countDown();
				return ex;
			}
			return null;
		});
		assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(locked.get()).isFalse();
		lock.unlock();
		Object imse = result.get(10, TimeUnit.SECONDS);
		assertThat(imse).isInstanceOf(IllegalMonitorStateException.class);
		assertThat(((Exception) imse).getMessage()).contains("You do not own");
		executorService.shutdown();
	}

	@Test
	void voidLockFailsWhenServerDown() throws Exception {
		try (TestingServer ownServer = new TestingServer();
				CuratorFramework ownClient = CuratorFrameworkFactory.newClient(ownServer.getConnectString(),
						new BoundedExponentialBackoffRetry(100, 1000, 3));
				ZkLockTemplate ownTemplate = startedTemplate(ownClient)) {
			ZkLockRegistry registry = new ZkLockRegistry(ownTemplate);
			Lock ordersLock = registry.obtain("orders");
			ordersLock.lock();
			ownServer.stop();
			Lock invoicesLock = registry.obtain("invoices");
			long startTime = System.currentTimeMillis();
			assertThat(invoicesLock.tryLock(1, TimeUnit.SECONDS))
				.as("Should not have been able to lock with zookeeper server stopped!")
				.isFalse();
			assertThat(System.currentTimeMillis() - startTime)
				.as("The tryLock() must not block far beyond the time requested!")
				.isLessThan(3_000);
			Lock interruptibleLock = registry.obtain("interruptible");
			CountDownLatch lockAttemptLatch = new CountDownLatch(1);
			AtomicReference<Exception> lockException = new AtomicReference<>();
			Thread lockThread = new Thread(() -> {
				try {
					interruptibleLock.lockInterruptibly();
				}
				catch (Exception ex) {
					lockException.set(ex);
				}
				finally {
					lockAttemptLatch.countDown();
				}
			});
			lockThread.start();
			lockThread.interrupt();
			assertThat(lockAttemptLatch.await(10, TimeUnit.SECONDS))
				.as("The lockInterruptibly() must return on an interrupt with zookeeper server stopped!")
				.isTrue();
			assertThat(lockException.get())
				.as("The lockInterruptibly() must propagate the interrupt, not attempt an acquisition")
				.isInstanceOf(InterruptedException.class);
			lockThread.join(10_000);
			assertThat(lockThread.isAlive()).isFalse();
			ownServer.restart();
			assertThat(invoicesLock.tryLock(10, TimeUnit.SECONDS))
				.as("Should have been able to lock with zookeeper server restarted!")
				.isTrue();
			assertThat(ordersLock.tryLock(1, TimeUnit.SECONDS))
				.as("Should have still held the lock obtained before the server went down!")
				.isTrue();
			Lock shipmentsLock = registry.obtain("shipments");
			assertThat(shipmentsLock.tryLock(1, TimeUnit.SECONDS)).as("Should have been able to obtain a new lock!")
				.isTrue();
			ordersLock.unlock();
			ordersLock.unlock();
			invoicesLock.unlock();
			shipmentsLock.unlock();
		}
	}

	@Test
	void testTryLock() throws Exception {
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		for (int i = 0; i < 10; i++) {
			Lock lock = registry.obtain("orders");
			int n = 0;
			while (!lock.tryLock() && n++ < 100) {
				Thread.sleep(100);
			}
			assertThat(n).isLessThan(100);
			lock.unlock();
		}
	}

	@Test
	void concurrentObtainCapacityTest() throws InterruptedException {
		int keyCount = 50;
		int capacity = 17;
		int threadCount = 4;
		CountDownLatch mainCountDownLatch = new CountDownLatch(keyCount);
		CountDownLatch countDownLatch = new CountDownLatch(threadCount);
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		registry.setCacheCapacity(capacity);
		ExecutorService executorService = Executors.newFixedThreadPool(threadCount);
		for (int i = 0; i < keyCount; i++) {
			int finalI = i;
			executorService.submit(() -> {
				countDownLatch.countDown();
				try {
					countDownLatch.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				Lock obtain = registry.obtain("orders:" + finalI);
				mainCountDownLatch.countDown();
				obtain.lock();
				obtain.unlock();
			});
		}
		executorService.shutdown();
		assertThat(mainCountDownLatch.await(30, TimeUnit.SECONDS)).isTrue();
		executorService.awaitTermination(5, TimeUnit.SECONDS);
		assertThat(getRegistryLocks(registry)).hasSize(capacity);
		registry.expireUnusedOlderThan(-1000);
		assertThat(getRegistryLocks(registry)).isEmpty();
	}

	@Test
	void setCapacityTest() {
		int capacity = 4;
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		registry.setCacheCapacity(capacity);
		registry.obtain("orders:1");
		registry.obtain("orders:2");
		registry.obtain("orders:3");
		registry.setCacheCapacity(capacity - 1);
		registry.obtain("orders:4");
		assertThat(getRegistryLocks(registry)).hasSize(3);
		assertThat(getRegistryLocks(registry)).containsKeys("orders:2", "orders:3", "orders:4");
		registry.setCacheCapacity(capacity);
		registry.obtain("orders:5");
		assertThat(getRegistryLocks(registry)).hasSize(4);
		assertThat(getRegistryLocks(registry)).containsKeys("orders:3", "orders:4", "orders:5");
	}

	@Test
	void testLockEvictionWithAnotherLockOnTheKey() throws InterruptedException {
		ZkLockRegistry registry = new ZkLockRegistry(this.template);
		registry.setCacheCapacity(1);
		Lock lock = registry.obtain("test");
		lock.lock();
		try {
			registry.obtain("test2");
			Lock lock1 = registry.obtain("test");
			boolean acquired = lock1.tryLock(10, TimeUnit.SECONDS);
			try {
				assertThat(acquired).isTrue();
				assertThat(lock1).isSameAs(lock);
			}
			finally {
				lock1.unlock();
			}
		}
		finally {
			lock.unlock();
		}
	}

	private static ZkLockTemplate startedTemplate(CuratorFramework client) {
		client.start();
		return new ZkLockTemplate(client, "/SpringIntegration-LockRegistry", Duration.ofSeconds(10), false);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Lock> getRegistryLocks(ZkLockRegistry registry) {
		return (Map<String, Lock>) ReflectionTestUtils.getField(registry, "locks");
	}

}
