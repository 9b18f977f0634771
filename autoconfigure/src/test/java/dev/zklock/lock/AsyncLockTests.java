package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.LockTimeoutException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Asynchronous calls of {@link ZkLockTemplate}: no thread waits for the lock or holds it, and
 * several instances (separate sessions) still exclude each other.
 */
@EmbeddedZooKeeper
@Timeout(180)
class AsyncLockTests {

	private static final Executor LATER = CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS);

	private LockTestSupport support;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.support = new LockTestSupport(server);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
		this.support.close();
	}

	@Test
	void asyncCallsOfThreeInstancesExcludeEachOtherWithoutWaitingThreads() throws Exception {
		List<ZkLockTemplate> instances = List.of(instance(), instance(), instance());
		int[] counter = new int[1];
		AtomicInteger inside = new AtomicInteger();
		AtomicBoolean overlap = new AtomicBoolean();
		List<CompletableFuture<Integer>> calls = new ArrayList<>();
		// Another instance holds the key while one thread issues every call: none can be granted,
		// so each call returns without waiting for its lock.
		ZkLockTemplate holder = instance();
		CountDownLatch holding = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> held = this.executor.submit(() -> holder.execute("counter", (lock) -> {
			holding.countDown();
			release.await(60, TimeUnit.SECONDS);
			return null;
		}));
		assertThat(holding.await(20, TimeUnit.SECONDS)).isTrue();
		for (int i = 0; i < 60; i++) {
			for (ZkLockTemplate instance : instances) {
				calls.add(instance.executeAsync("counter", (lock) -> {
					if (inside.incrementAndGet() != 1) {
						overlap.set(true);
					}
					int read = counter[0];
					// The write happens later, on another thread: the lock follows the work.
					return CompletableFuture.supplyAsync(() -> {
						counter[0] = read + 1;
						inside.decrementAndGet();
						return read + 1;
					}, LATER);
				}));
			}
		}
		assertThat(calls).noneMatch(CompletableFuture::isDone);
		release.countDown();
		held.get(20, TimeUnit.SECONDS);
		CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(150, TimeUnit.SECONDS);
		assertThat(overlap).isFalse();
		assertThat(counter[0]).isEqualTo(180);
		assertThat(calls.stream().map(CompletableFuture::join).distinct()).hasSize(180);
	}

	@Test
	void workRunsAndCompletesOnTheTemplatesExecutorNeverOnAZooKeeperThread() throws Exception {
		ZkLockTemplate instance = instance();
		instance.setAsyncExecutor(Executors.newFixedThreadPool(2, (task) -> new Thread(task, "app-async")));
		Set<String> threads = ConcurrentHashMap.newKeySet();
		List<CompletableFuture<String>> calls = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			calls.add(instance.executeAsync("threads", (lock) -> {
				threads.add(Thread.currentThread().getName());
				return CompletableFuture.supplyAsync(() -> "done", LATER);
			}).thenApply((result) -> Thread.currentThread().getName()));
		}
		for (CompletableFuture<String> call : calls) {
			threads.add(call.get(30, TimeUnit.SECONDS));
		}
		assertThat(threads).containsOnly("app-async");
	}

	@Test
	void aFailedWorkReleasesTheLockAndFailsTheCallWithItsException() throws Exception {
		ZkLockTemplate instance = instance();
		ZkLockTemplate other = instance();
		CompletableFuture<String> call = instance.executeAsync("failing",
				(lock) -> CompletableFuture.supplyAsync(() -> {
					throw new IllegalStateException("boom");
				}, LATER));
		assertThat(call).failsWithin(Duration.ofSeconds(20))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(IllegalStateException.class)
			.withMessage("boom");
		assertThat(LockTestSupport.lockNodes(this.support.client(), "failing")).isEmpty();
		assertThat(other.tryExecute("failing", LockMode.EXCLUSIVE, Duration.ZERO, (lock) -> "free")).contains("free");
		CompletableFuture<String> thrown = instance.executeAsync("failing", (lock) -> {
			throw new IllegalArgumentException("at once");
		});
		assertThat(thrown).failsWithin(Duration.ofSeconds(20))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(IllegalArgumentException.class);
		assertThat(other.tryExecute("failing", LockMode.EXCLUSIVE, Duration.ZERO, (lock) -> "free")).contains("free");
	}

	@Test
	void aCallCancelledWhileItWaitsLeavesNoNodeBehind() throws Exception {
		ZkLockTemplate holder = instance();
		ZkLockTemplate waiter = instance();
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holding = this.executor.submit(() -> holder.execute("cancelled", (lock) -> {
			inside.countDown();
			release.await(60, TimeUnit.SECONDS);
			return null;
		}));
		assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
		AtomicBoolean ran = new AtomicBoolean();
		CompletableFuture<String> call = waiter.executeAsync(List.of("cancelled"), LockMode.EXCLUSIVE,
				Duration.ofSeconds(60), (lock) -> {
					ran.set(true);
					return CompletableFuture.completedFuture("ran");
				});
		CuratorFramework observer = this.support.client();
		await().atMost(Duration.ofSeconds(20)).until(() -> LockTestSupport.lockNodes(observer, "cancelled").size() == 2);
		assertThat(call.cancel(false)).isTrue();
		await().atMost(Duration.ofSeconds(20)).until(() -> LockTestSupport.lockNodes(observer, "cancelled").size() == 1);
		release.countDown();
		holding.get(20, TimeUnit.SECONDS);
		await().atMost(Duration.ofSeconds(20)).until(() -> LockTestSupport.lockNodes(observer, "cancelled").isEmpty());
		assertThat(ran).isFalse();
		assertThat(waiter.waitingCalls()).isEmpty();
	}

	@Test
	void aCallCancelledWhileItRunsCancelsTheWorkAndTheNextWaiterGetsTheLock() throws Exception {
		ZkLockTemplate instance = instance();
		ZkLockTemplate other = instance();
		CompletableFuture<String> work = new CompletableFuture<>();
		CountDownLatch started = new CountDownLatch(1);
		CompletableFuture<String> call = instance.executeAsync("running", (lock) -> {
			started.countDown();
			return work;
		});
		assertThat(started.await(20, TimeUnit.SECONDS)).isTrue();
		Future<String> next = this.executor.submit(() -> other.execute("running", LockMode.EXCLUSIVE,
				Duration.ofSeconds(30), (lock) -> "next"));
		call.cancel(true);
		// The work's future exists only once the callback has returned it: a cancel that comes
		// while the callback still runs reaches the work on the template's executor, after it.
		await().atMost(Duration.ofSeconds(20)).until(work::isCancelled);
		assertThat(next.get(20, TimeUnit.SECONDS)).isEqualTo("next");
	}

	@Test
	void aLockNotObtainedInTimeEndsTheCallWithATimeoutOrTheFallback() throws Exception {
		ZkLockTemplate holder = instance();
		ZkLockTemplate waiter = instance();
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holding = this.executor.submit(() -> holder.execute("busy", (lock) -> {
			inside.countDown();
			release.await(60, TimeUnit.SECONDS);
			return null;
		}));
		assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<String> timedOut = waiter.executeAsync(List.of("busy"), LockMode.EXCLUSIVE,
				Duration.ofMillis(300), (lock) -> CompletableFuture.completedFuture("ran"));
		assertThat(timedOut).failsWithin(Duration.ofSeconds(20))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(LockTimeoutException.class);
		CompletableFuture<String> skipped = waiter.executeOrElseAsync(null, List.of("busy"), LockMode.EXCLUSIVE,
				Duration.ZERO, (lock) -> CompletableFuture.completedFuture("ran"),
				() -> CompletableFuture.completedFuture("skipped"));
		assertThat(skipped.get(20, TimeUnit.SECONDS)).isEqualTo("skipped");
		release.countDown();
		holding.get(20, TimeUnit.SECONDS);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> LockTestSupport.lockNodes(this.support.client(), "busy").isEmpty());
	}

	@Test
	void aLockLostWhileTheWorkRanEndsTheCallWithLockLost() throws Exception {
		CuratorFramework client = this.support.client(Duration.ofSeconds(4));
		ZkLockTemplate instance = this.support.template(client, false);
		CompletableFuture<String> work = new CompletableFuture<>();
		List<HeldLock> held = new ArrayList<>();
		CompletableFuture<String> call = instance.executeAsync("lost", (lock) -> {
			held.add(lock);
			return work;
		});
		await().atMost(Duration.ofSeconds(20)).until(() -> !held.isEmpty());
		this.support.expireSession(client);
		await().atMost(Duration.ofSeconds(20)).until(() -> !held.get(0).isValid());
		work.complete("done");
		assertThat(call).failsWithin(Duration.ofSeconds(20))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(LockLostException.class);
	}

	@Test
	void severalKeysAreHeldTogetherAndTokensGrowAcrossAsyncHandoffs() throws Exception {
		ZkLockTemplate instance = instance();
		List<CompletableFuture<Long>> calls = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			calls.add(instance.executeAsync(List.of("b", "a"), LockMode.EXCLUSIVE, null,
					(lock) -> lock.fencingTokenAsync().toCompletableFuture()
						.thenApplyAsync((token) -> token, LATER)));
		}
		List<Long> tokens = new ArrayList<>();
		for (CompletableFuture<Long> call : calls) {
			tokens.add(call.get(30, TimeUnit.SECONDS));
		}
		assertThat(tokens).doesNotHaveDuplicates().isSorted();
		assertThat(LockTestSupport.lockNodes(this.support.client(), "a")).isEmpty();
		assertThat(LockTestSupport.lockNodes(this.support.client(), "b")).isEmpty();
	}

	@Test
	void theFutureOfACallThatRanCompletesOnceTheNodeIsGone() throws Exception {
		ZkLockTemplate instance = instance();
		CuratorFramework observer = this.support.client();
		for (int i = 0; i < 5; i++) {
			instance.executeAsync("released", (lock) -> CompletableFuture.completedFuture("ok")).get(20, TimeUnit.SECONDS);
			assertThat(LockTestSupport.lockNodes(observer, "released")).isEmpty();
		}
	}

	@Test
	void aWaiterWhoseTimerRunsLateIsNotGrantedAfterItsWaitTime() throws Exception {
		LockEngine engine = new LockEngine(this.support.client(), "/locks", false);
		try {
			Acquisition holding = engine.acquire(List.of("late-timer"), LockMode.EXCLUSIVE, Duration.ofSeconds(10));
			assertThat(holding).isNotNull();
			CompletableFuture<Acquisition> waiting = engine.acquireAsync(List.of("late-timer"), LockMode.EXCLUSIVE,
					Duration.ofMillis(200), Runnable::run);
			// Queued behind this instance's holder, with its timer set, when acquireAsync returns.
			assertThat(waiting).isNotDone();
			// The waiter's timer runs on the engine's one scheduler thread: keep that thread busy
			// past the wait time, as a loaded machine may.
			CountDownLatch schedulerBusy = new CountDownLatch(1);
			CountDownLatch freeScheduler = new CountDownLatch(1);
			engine.port().execute(() -> {
				schedulerBusy.countDown();
				try {
					freeScheduler.await(10, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			assertThat(schedulerBusy.await(10, TimeUnit.SECONDS)).isTrue();
			Thread.sleep(400);
			assertThat(waiting).isNotDone();
			engine.release(holding);
			freeScheduler.countDown();
			assertThat(waiting.get(10, TimeUnit.SECONDS)).as("a grant 200 ms after the wait time ended").isNull();
			Acquisition next = engine.acquire(List.of("late-timer"), LockMode.EXCLUSIVE, Duration.ofSeconds(10));
			assertThat(next).as("the key, given up by the waiter that timed out").isNotNull();
			engine.release(next);
		}
		finally {
			engine.close();
		}
	}

	private ZkLockTemplate instance() {
		return this.support.template(this.support.client(), false);
	}

}
