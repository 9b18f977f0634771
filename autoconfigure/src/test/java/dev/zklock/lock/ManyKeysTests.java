package dev.zklock.lock;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Locking one key per order id, 100,000 of them, must not grow anything per key in the client.
 */
@EmbeddedZooKeeper
@Timeout(300)
class ManyKeysTests {

	private static final int THREADS = 8;

	@Test
	void hundredThousandDistinctKeysLeaveHeapAndCacheFlat(ZooKeeperTestServer server) throws Exception {
		try (LockTestSupport support = new LockTestSupport(server)) {
			CuratorFramework client = support.client();
			CuratorFramework observer = support.client();
			try (LockEngine engine = new LockEngine(client, LockTestSupport.BASE, false)) {
				lockDistinctKeys(engine, 0, 20_000);
				long afterWarmUp = usedHeapAfterCleanUp(observer);
				lockDistinctKeys(engine, 20_000, 100_000);
				long afterAll = usedHeapAfterCleanUp(observer);
				assertThat(engine.heldLocks()).isEmpty();
				assertThat(engine.waitingCalls()).isEmpty();
				assertThat(engine.pathCacheSize()).isLessThanOrEqualTo(1024);
				Map<?, ?> keyNodeCreates = (Map<?, ?>) ReflectionTestUtils.getField(engine.port(), "keyNodeCreates");
				assertThat(keyNodeCreates.size()).as("the key node creates the port keeps")
					.isLessThanOrEqualTo(1024);
				// 80,000 more keys: any per-key leak of even 100 bytes would show as 8 MB.
				assertThat(afterAll - afterWarmUp).as("heap growth in bytes over 80,000 more keys")
					.isLessThan(8L * 1024 * 1024);
			}
		}
	}

	private static void lockDistinctKeys(LockEngine engine, int from, int to) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				int thread = t;
				futures.add(executor.submit(() -> {
					for (int i = from + thread; i < to; i += THREADS) {
						Acquisition acquisition = engine.acquire(List.of("order:" + i), LockMode.EXCLUSIVE,
								Duration.ofSeconds(30));
						assertThat(acquisition).isNotNull();
						engine.release(acquisition);
					}
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get(240, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static long usedHeapAfterCleanUp(CuratorFramework observer) {
		// Released lock nodes are deleted in the background and their empty key nodes by the
		// server (the in-process server shares this heap): wait for both before measuring.
		await().atMost(Duration.ofSeconds(120))
			.pollInterval(Duration.ofMillis(500))
			.until(() -> keyNodesLeft(observer) < 50);
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

	/**
	 * Return the number of key nodes left: none once the server removed the emptied base node
	 * too (it is a container).
	 */
	private static int keyNodesLeft(CuratorFramework observer) throws Exception {
		return (observer.checkExists().forPath(LockTestSupport.BASE) != null)
				? LockTestSupport.childrenOrNone(observer, LockTestSupport.BASE) : 0;
	}

}
