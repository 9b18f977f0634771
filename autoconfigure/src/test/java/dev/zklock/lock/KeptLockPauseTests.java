package dev.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.ZkLockException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.ChaosProxy;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A grant made after a possible process pause is confirmed with the server before the call runs:
 * here the keeper's session has already ended on the server while its client, cut off, has not
 * heard of it yet, which is what a process waking from a long pause sees.
 */
@EmbeddedZooKeeper
@Timeout(120)
class KeptLockPauseTests {

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void tearDown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Test
	void aKeptLockIsNotReusedAfterAPauseWithoutTheServersWord(ZooKeeperTestServer server) throws Exception {
		LockSettings keep = new LockSettings(true, 32, Duration.ofMillis(100), Duration.ofMinutes(1), 10);
		try (LockTestSupport support = new LockTestSupport(server);
				ChaosProxy proxy = ChaosProxy.start(server.getConnectString())) {
			CuratorFramework keeperClient = support.client(proxy.connectString(), Duration.ofSeconds(6));
			try (LockEngine keeper = new LockEngine(keeperClient, LockTestSupport.BASE, false, LockCallListener.NONE,
					keep)) {
				Acquisition first = keeper.acquire(List.of("paused"), LockMode.EXCLUSIVE, Duration.ofSeconds(10));
				assertThat(first).isNotNull();
				keeper.release(first);
				assertThat(keeper.keptLocks()).hasSize(1);
				// The keeper's session ends on the server; cut off, its client cannot hear it.
				proxy.blackhole();
				support.expireSession(keeperClient);
				ZkLockTemplate other = support.template();
				AtomicBoolean otherInside = new AtomicBoolean();
				CountDownLatch inside = new CountDownLatch(1);
				CountDownLatch release = new CountDownLatch(1);
				Future<?> holding = this.executor.submit(() -> other.execute("paused", LockMode.EXCLUSIVE,
						Duration.ofSeconds(20), (lock) -> {
							otherInside.set(true);
							inside.countDown();
							release.await(30, TimeUnit.SECONDS);
							otherInside.set(false);
							return null;
						}));
				assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
				// The keeper wakes from a pause and calls again, still believing in its kept lock.
				keeper.pauseMonitor().pauseDetected();
				boolean ranBesideTheOther = false;
				Acquisition again = tryAcquire(keeper);
				if (again != null) {
					ranBesideTheOther = otherInside.get();
					keeper.release(again);
				}
				release.countDown();
				holding.get(20, TimeUnit.SECONDS);
				assertThat(ranBesideTheOther).as("the keeper's call ran while the other instance held the key")
					.isFalse();
				assertThat(again).as("a grant on the kept lock of an ended session").isNull();
			}
		}
	}

	private static @Nullable Acquisition tryAcquire(LockEngine keeper) throws InterruptedException {
		try {
			return keeper.acquire(List.of("paused"), LockMode.EXCLUSIVE, Duration.ofMillis(500));
		}
		catch (ZkLockException ex) {
			return null; // unreachable: the keeper is cut off, and knows it now
		}
	}

}
