package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.LockTimeoutException;
import dev.zklock.ZkLockContext;
import dev.zklock.ZkLockException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Lock semantics against a real ZooKeeper server, with several clients (sessions), as several
 * application instances would use it.
 */
@EmbeddedZooKeeper
@Timeout(120)
class ZkLockTemplateTests {

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
	void exclusiveLockLosesNoUpdateAcrossClientsAndThreads() throws Exception {
		List<ZkLockTemplate> templates = List.of(this.support.template(), this.support.template(),
				this.support.template());
		int[] counter = new int[1];
		List<Future<?>> futures = new ArrayList<>();
		for (ZkLockTemplate template : templates) {
			for (int thread = 0; thread < 4; thread++) {
				futures.add(this.executor.submit(() -> {
					for (int i = 0; i < 50; i++) {
						template.execute("counter", (lock) -> {
							int read = counter[0];
							Thread.yield();
							counter[0] = read + 1;
							return null;
						});
					}
					return null;
				}));
			}
		}
		for (Future<?> future : futures) {
			future.get(90, TimeUnit.SECONDS);
		}
		assertThat(counter[0]).isEqualTo(3 * 4 * 50);
	}

	@Test
	void sharedHoldersOverlapAndExclusiveHoldersOverlapNothing() throws Exception {
		ZkLockTemplate one = this.support.template();
		ZkLockTemplate two = this.support.template();
		ZkLockTemplate three = this.support.template();
		// Three readers of three sessions can only meet at the barrier if they hold the lock at once.
		CyclicBarrier together = new CyclicBarrier(3);
		List<Future<Boolean>> readers = new ArrayList<>();
		for (ZkLockTemplate template : List.of(one, two, three)) {
			readers.add(this.executor.submit(() -> template.execute("shelf", LockMode.SHARED, null, (lock) -> {
				try {
					together.await(20, TimeUnit.SECONDS);
					return true;
				}
				catch (BrokenBarrierException ex) {
					return false;
				}
			})));
		}
		for (Future<Boolean> reader : readers) {
			assertThat(reader.get(30, TimeUnit.SECONDS)).isTrue();
		}
		AtomicInteger readersInside = new AtomicInteger();
		AtomicInteger writersInside = new AtomicInteger();
		List<String> violations = new CopyOnWriteArrayList<>();
		List<Future<?>> futures = new ArrayList<>();
		int index = 0;
		for (ZkLockTemplate template : List.of(one, two, three)) {
			for (int thread = 0; thread < 3; thread++) {
				LockMode mode = (index++ % 3 == 0) ? LockMode.EXCLUSIVE : LockMode.SHARED;
				futures.add(this.executor.submit(() -> {
					for (int i = 0; i < 20; i++) {
						template.execute("shelf", mode, null, (lock) -> {
							if (mode == LockMode.EXCLUSIVE) {
								int writers = writersInside.incrementAndGet();
								if (writers != 1 || readersInside.get() != 0) {
									violations.add("writer beside " + (writers - 1) + " writers, " + readersInside.get()
											+ " readers");
								}
								Thread.sleep(1);
								writersInside.decrementAndGet();
							}
							else {
								readersInside.incrementAndGet();
								if (writersInside.get() != 0) {
									violations.add("reader beside a writer");
								}
								Thread.sleep(1);
								readersInside.decrementAndGet();
							}
							return null;
						});
					}
					return null;
				}));
			}
		}
		for (Future<?> future : futures) {
			future.get(90, TimeUnit.SECONDS);
		}
		assertThat(violations).isEmpty();
	}

	@Test
	void waitersAreServedFirstComeFirstServed() throws Exception {
		ZkLockTemplate holder = this.support.template();
		CuratorFramework observer = this.support.client();
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch held = new CountDownLatch(1);
		Future<?> first = this.executor.submit(() -> holder.execute("queue", (lock) -> {
			held.countDown();
			return release.await(60, TimeUnit.SECONDS);
		}));
		assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();
		List<String> order = new CopyOnWriteArrayList<>();
		List<Future<?>> waiters = new ArrayList<>();
		for (String name : List.of("b", "c", "d", "e")) {
			ZkLockTemplate template = this.support.template();
			int queued = LockTestSupport.lockNodes(observer, "queue").size();
			waiters.add(this.executor.submit(() -> template.execute("queue", (lock) -> order.add(name))));
			// The next waiter starts only once this one's node is in the queue.
			await().atMost(Duration.ofSeconds(20))
				.until(() -> LockTestSupport.lockNodes(observer, "queue").size() == queued + 1);
		}
		release.countDown();
		first.get(20, TimeUnit.SECONDS);
		for (Future<?> waiter : waiters) {
			waiter.get(20, TimeUnit.SECONDS);
		}
		assertThat(order).containsExactly("b", "c", "d", "e");
	}

	@Test
	void timeoutsThrowOrSkipAndLeaveNoNodeBehind() throws Exception {
		ZkLockTemplate holder = this.support.template();
		ZkLockTemplate other = this.support.template();
		CuratorFramework observer = this.support.client();
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch held = new CountDownLatch(1);
		Future<?> holding = this.executor.submit(() -> holder.execute("busy", (lock) -> {
			held.countDown();
			return release.await(60, TimeUnit.SECONDS);
		}));
		assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> other.execute("busy", LockMode.EXCLUSIVE, Duration.ofMillis(300), (lock) -> "never"))
			.withMessageContaining("'busy'")
			.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(300)));
		assertThat(other.tryExecute("busy", LockMode.SHARED, Duration.ZERO, (lock) -> "never")).isEmpty();
		assertThat(other.executeOrElse(List.of("busy"), LockMode.EXCLUSIVE, Duration.ofMillis(200), (lock) -> "never",
				() -> "skipped"))
			.isEqualTo("skipped");
		await().atMost(Duration.ofSeconds(10)).until(() -> LockTestSupport.lockNodes(observer, "busy").size() == 1);
		release.countDown();
		holding.get(20, TimeUnit.SECONDS);
		assertThat(other.tryExecute("busy", LockMode.EXCLUSIVE, Duration.ZERO, (lock) -> "now")).contains("now");
	}

	@Test
	void interruptedWaiterLeavesNoNodeBehind() throws Exception {
		ZkLockTemplate holder = this.support.template();
		ZkLockTemplate other = this.support.template();
		CuratorFramework observer = this.support.client();
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch held = new CountDownLatch(1);
		Future<?> holding = this.executor.submit(() -> holder.execute("patience", (lock) -> {
			held.countDown();
			return release.await(60, TimeUnit.SECONDS);
		}));
		assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		Thread waiter = new Thread(() -> {
			try {
				other.execute("patience", LockMode.EXCLUSIVE, Duration.ofMinutes(1), (lock) -> "never");
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
		});
		waiter.start();
		await().atMost(Duration.ofSeconds(20)).until(() -> LockTestSupport.lockNodes(observer, "patience").size() == 2);
		waiter.interrupt();
		waiter.join(20_000);
		assertThat(failure.get()).isInstanceOf(ZkLockException.class).hasMessageContaining("Interrupted");
		await().atMost(Duration.ofSeconds(10)).until(() -> LockTestSupport.lockNodes(observer, "patience").size() == 1);
		release.countDown();
		holding.get(20, TimeUnit.SECONDS);
	}

	@Test
	void reentrantPerThreadAndUpgradeFailsAtOnce() {
		ZkLockTemplate template = this.support.template();
		String result = template.execute("account", (outer) -> template.execute("account", (inner) -> {
			assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
			return template.execute("account", LockMode.SHARED, Duration.ZERO, (shared) -> {
				assertThat(ZkLockContext.current().mode()).isEqualTo(LockMode.SHARED);
				assertThat(ZkLockContext.find("account")).get().extracting(HeldLock::fencingToken)
					.isEqualTo(outer.fencingToken());
				return "nested";
			});
		}));
		assertThat(result).isEqualTo("nested");
		long started = System.nanoTime();
		assertThatExceptionOfType(ZkLockException.class)
			.isThrownBy(() -> template.execute("account", LockMode.SHARED, null,
					(shared) -> template.execute("account", LockMode.EXCLUSIVE, Duration.ofSeconds(30), (l) -> "x")))
			.withMessageContaining("'account'")
			.withMessageContaining("upgrading would deadlock");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
		assertThatIllegalStateException().isThrownBy(ZkLockContext::current);
	}

	@Test
	void contextShowsTheInnermostLockAndFindsOuterOnes() {
		ZkLockTemplate template = this.support.template();
		template.execute("outer", (outer) -> template.execute("inner", (inner) -> {
			assertThat(ZkLockContext.current().key()).isEqualTo("inner");
			assertThat(ZkLockContext.find("outer")).get().extracting(HeldLock::key).isEqualTo("outer");
			assertThat(ZkLockContext.find("elsewhere")).isEmpty();
			assertThat(inner.isValid()).isTrue();
			inner.ensureValid();
			return null;
		}));
		assertThat(ZkLockContext.find("outer")).isEmpty();
	}

	@Test
	void aCallOnSeveralKeysStartsItsWorkOnlyWhileTheKeyTakenFirstIsStillHeld() throws Exception {
		// The call takes "first", then waits for "second", held by another instance; meanwhile
		// an operator releases its node of "first" (the owner applies the release, then the node
		// is deleted, if the owner has not deleted it already). Once "second" is free, the call must not start its work on a lost "first":
		// it gives both back and takes them again.
		CuratorFramework client = this.support.client();
		ZkLockTemplate one = this.support.template(client, false);
		ZkLockTemplate other = this.support.template();
		CountDownLatch otherHolds = new CountDownLatch(1);
		CountDownLatch letGo = new CountDownLatch(1);
		Future<?> holder = this.executor.submit(() -> other.execute("second", (lock) -> {
			otherHolds.countDown();
			letGo.await();
			return null;
		}));
		assertThat(otherHolds.await(10, TimeUnit.SECONDS)).isTrue();
		Future<String> call = this.executor.submit(() -> one.execute(List.of("first", "second"), LockMode.EXCLUSIVE,
				Duration.ofSeconds(30), (lock) -> ZkLockContext.find("first").orElseThrow().isValid() + " "
						+ lock.isValid()));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> one.heldLocks().stream().anyMatch((held) -> held.key().equals("first")));
		List<String> nodes = LockTestSupport.lockNodes(client, "first");
		assertThat(nodes).hasSize(1);
		String node = LockNodes.path(LockTestSupport.BASE, LockKeys.encode("first")) + "/" + nodes.get(0);
		assertThat(one.loseReleased(List.of(node), one.sessionId(), "released by the test")).isOne();
		this.support.client().delete().quietly().forPath(node);
		letGo.countDown();
		holder.get(10, TimeUnit.SECONDS);
		assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("true true");
	}

	@Test
	void aWaitingCallWithANodeOfItsOwnAsksForANewNodeAtOnceWhenAnOperatorReleasesIt() throws Exception {
		// Local handoff off: the waiting call has a node of its own. An operator releases that
		// node while another instance holds the key: the call must ask again at once, with a new
		// node, not learn of it only when the holder lets go.
		CuratorFramework client = this.support.client();
		ZkLockTemplate one = this.support.template(client,
				new LockSettings(false, 32, Duration.ofMillis(100), Duration.ZERO, 0));
		ZkLockTemplate other = this.support.template();
		CountDownLatch otherHolds = new CountDownLatch(1);
		CountDownLatch letGo = new CountDownLatch(1);
		Future<?> holder = this.executor.submit(() -> other.execute("queued", (lock) -> {
			otherHolds.countDown();
			letGo.await();
			return null;
		}));
		try {
			assertThat(otherHolds.await(10, TimeUnit.SECONDS)).isTrue();
			Future<String> call = this.executor.submit(
					() -> one.execute("queued", LockMode.EXCLUSIVE, Duration.ofSeconds(30), (lock) -> "ran"));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> LockTestSupport.lockNodes(client, "queued").size() == 2);
			String waiting = LockNodes.sorted(LockTestSupport.lockNodes(client, "queued")).get(1);
			String path = LockNodes.path(LockTestSupport.BASE, LockKeys.encode("queued")) + "/" + waiting;
			assertThat(one.loseReleased(List.of(path), one.sessionId(), "released by the test")).isZero();
			await().atMost(Duration.ofSeconds(10)).until(() -> {
				List<String> nodes = LockTestSupport.lockNodes(client, "queued");
				return nodes.size() == 2 && !nodes.contains(waiting);
			});
			assertThat(call).isNotDone();
			letGo.countDown();
			assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("ran");
		}
		finally {
			letGo.countDown();
			holder.get(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void severalKeysNeverDeadlock() throws Exception {
		ZkLockTemplate one = this.support.template();
		ZkLockTemplate two = this.support.template();
		AtomicInteger done = new AtomicInteger();
		Future<?> ab = this.executor.submit(() -> {
			for (int i = 0; i < 1000; i++) {
				one.execute(List.of("a", "b"), LockMode.EXCLUSIVE, Duration.ofSeconds(30), (lock) -> done.incrementAndGet());
			}
			return null;
		});
		Future<?> ba = this.executor.submit(() -> {
			for (int i = 0; i < 1000; i++) {
				two.execute(List.of("b", "a", "b"), LockMode.EXCLUSIVE, Duration.ofSeconds(30),
						(lock) -> done.incrementAndGet());
			}
			return null;
		});
		ab.get(200, TimeUnit.SECONDS);
		ba.get(200, TimeUnit.SECONDS);
		assertThat(done.get()).isEqualTo(2000);
		one.execute(List.of("b", "a"), LockMode.EXCLUSIVE, null, (lock) -> {
			assertThat(lock.key()).isEqualTo("b");
			assertThat(ZkLockContext.find("a")).isPresent();
			return null;
		});
	}

	@Test
	void fencingTokensStrictlyIncreaseOverAThousandGrants() throws Exception {
		List<ZkLockTemplate> templates = List.of(this.support.template(), this.support.template(),
				this.support.template());
		List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
		List<Future<?>> futures = new ArrayList<>();
		for (ZkLockTemplate template : templates) {
			for (int thread = 0; thread < 2; thread++) {
				futures.add(this.executor.submit(() -> {
					for (int i = 0; i < 167; i++) {
						template.execute("fenced", (lock) -> tokens.add(lock.fencingToken()));
					}
					return null;
				}));
			}
		}
		for (Future<?> future : futures) {
			future.get(120, TimeUnit.SECONDS);
		}
		assertThat(tokens).hasSizeGreaterThanOrEqualTo(1000).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void fencingTokenGrowsWhenTheKeysNodeIsRemovedAndCreatedAgain() throws Exception {
		ZkLockTemplate template = this.support.template();
		CuratorFramework observer = this.support.client();
		long first = template.execute("recreated", HeldLock::fencingToken);
		// The key's node is an empty container now; the server removes it.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> observer.checkExists().forPath(LockTestSupport.BASE + "/recreated") == null);
		long second = template.execute("recreated", HeldLock::fencingToken);
		assertThat(second).isGreaterThan(first);
	}

	@Test
	void emptyKeysAreRejected() {
		ZkLockTemplate template = this.support.template();
		assertThatIllegalArgumentException().isThrownBy(() -> template.execute("", (lock) -> "x"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> template.execute(List.of(), LockMode.EXCLUSIVE, null, (lock) -> "x"));
	}

	@Test
	void callbackExceptionsPassThroughAndTheLockIsReleased() throws Exception {
		ZkLockTemplate template = this.support.template();
		CuratorFramework observer = this.support.client();
		Exception checked = new java.io.IOException("disk full");
		assertThatExceptionOfType(java.io.IOException.class).isThrownBy(() -> template.execute("io", (lock) -> {
			throw checked;
		})).isSameAs(checked);
		await().atMost(Duration.ofSeconds(10)).until(() -> LockTestSupport.lockNodes(observer, "io").isEmpty());
		assertThat(this.support.template().tryExecute("io", LockMode.EXCLUSIVE, Duration.ZERO, (lock) -> "free"))
			.isEqualTo(Optional.of("free"));
	}

}
