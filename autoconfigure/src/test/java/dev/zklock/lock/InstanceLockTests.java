package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
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
import dev.zklock.LockCallback;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Locks owned by the instance: calls of one template pass a key's node to each other, and
 * several templates (separate sessions, as separate instances) still exclude each other.
 */
@EmbeddedZooKeeper
@Timeout(180)
class InstanceLockTests {

	private static final LockSettings HANDOFF = new LockSettings(true, 8, Duration.ofSeconds(10), Duration.ZERO, 0);

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
	void exclusionHoldsAcrossInstancesWhileEachHandsOffLocally() throws Exception {
		List<ZkLockTemplate> instances = List.of(instance(HANDOFF), instance(HANDOFF), instance(HANDOFF));
		int[] counter = new int[1];
		AtomicInteger inside = new AtomicInteger();
		AtomicBoolean overlap = new AtomicBoolean();
		List<Future<?>> workers = new ArrayList<>();
		for (ZkLockTemplate instance : instances) {
			for (int t = 0; t < 6; t++) {
				workers.add(this.executor.submit(() -> {
					for (int i = 0; i < 40; i++) {
						instance.execute("counter", (lock) -> {
							if (inside.incrementAndGet() != 1) {
								overlap.set(true);
							}
							int read = counter[0];
							Thread.sleep(1);
							counter[0] = read + 1;
							inside.decrementAndGet();
							return null;
						});
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(150, TimeUnit.SECONDS);
		}
		assertThat(overlap).isFalse();
		assertThat(counter[0]).isEqualTo(3 * 6 * 40);
		long handoffs = instances.stream().mapToLong((instance) -> instance.lockCounts().handoffs()).sum();
		assertThat(handoffs).as("local handoffs").isGreaterThan(0);
	}

	@Test
	void localHandoffsMakeNoZooKeeperWrites() throws Exception {
		CuratorFramework observer = this.support.client();
		ZkLockTemplate instance = instance(HANDOFF);
		int threads = 8;
		int calls = 50;
		long before = LockTestSupport.writeNow(observer);
		callAtOnce(instance, "hot", threads, calls, (lock) -> {
			Thread.sleep(1);
			return null;
		});
		long writes = LockTestSupport.writeNow(observer) - before - 1;
		// A node per call would cost two writes per call (create, delete): 800 here.
		assertThat(writes).as("writes for %d calls", threads * calls).isLessThan(threads * calls / 4);
		assertThat(instance.lockCounts().handoffs()).isGreaterThan(threads * calls / 2);
	}

	@Test
	void handedOffGrantsTakeTheirTokensWithoutZooKeeperWrites() throws Exception {
		CuratorFramework observer = this.support.client();
		ZkLockTemplate instance = instance(HANDOFF);
		int threads = 8;
		int calls = 50;
		List<Long> tokens = new ArrayList<>();
		long before = LockTestSupport.writeNow(observer);
		callAtOnce(instance, "hot-fenced", threads, calls, (lock) -> {
			long token = lock.fencingToken();
			synchronized (tokens) {
				tokens.add(token);
			}
			Thread.sleep(1);
			return null;
		});
		long writes = LockTestSupport.writeNow(observer) - before - 1;
		long handoffs = instance.lockCounts().handoffs();
		assertThat(handoffs).isGreaterThan(threads * calls / 2);
		// A write per handed-off token would be more writes than handoffs.
		assertThat(writes).as("writes for %d calls, %d of them handed off", threads * calls, handoffs)
			.isLessThan(threads * calls / 4);
		assertThat(tokens).hasSize(threads * calls).isSorted().doesNotHaveDuplicates();
	}

	/**
	 * Make the given number of calls on the key from each of the given number of threads, all
	 * starting together, and wait for them.
	 */
	private void callAtOnce(ZkLockTemplate instance, String key, int threads, int calls,
			LockCallback<Object, Exception> work) throws Exception {
		CyclicBarrier start = new CyclicBarrier(threads);
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			workers.add(this.executor.submit(() -> {
				start.await(20, TimeUnit.SECONDS);
				for (int i = 0; i < calls; i++) {
					instance.execute(key, work);
				}
				return null;
			}));
		}
		for (Future<?> worker : workers) {
			worker.get(120, TimeUnit.SECONDS);
		}
	}

	@Test
	void fencingTokensGrowAcrossHandoffsAndInstances() throws Exception {
		List<ZkLockTemplate> instances = List.of(instance(HANDOFF), instance(HANDOFF));
		List<Long> tokens = new ArrayList<>();
		List<Future<?>> workers = new ArrayList<>();
		for (ZkLockTemplate instance : instances) {
			for (int t = 0; t < 4; t++) {
				workers.add(this.executor.submit(() -> {
					for (int i = 0; i < 40; i++) {
						instance.execute("fenced", (lock) -> {
							long token = lock.fencingToken();
							synchronized (tokens) {
								tokens.add(token);
							}
							return null;
						});
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(150, TimeUnit.SECONDS);
		}
		assertThat(tokens).hasSize(2 * 4 * 40).isSorted().doesNotHaveDuplicates();
		assertThat(instances.get(0).lockCounts().handoffs() + instances.get(1).lockCounts().handoffs())
			.isGreaterThan(0);
	}

	@Test
	void anotherInstanceGetsTheKeyWithinTheHandoffBound() throws Exception {
		LockSettings bounded = new LockSettings(true, 5, Duration.ofSeconds(30), Duration.ZERO, 0);
		ZkLockTemplate busy = instance(bounded);
		ZkLockTemplate other = instance(bounded);
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicInteger grantsAfterSeen = new AtomicInteger();
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			workers.add(this.executor.submit(() -> {
				while (running.get()) {
					busy.execute("contended", (lock) -> {
						countIfOthersWait(busy, "contended", grantsAfterSeen);
						Thread.sleep(5);
						return null;
					});
				}
				return null;
			}));
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> busy.lockCounts().handoffs() > 20);
		int[] afterSeen = new int[1];
		other.execute("contended", LockMode.EXCLUSIVE, Duration.ofSeconds(20), (lock) -> {
			afterSeen[0] = grantsAfterSeen.get();
			return null;
		});
		running.set(false);
		for (Future<?> worker : workers) {
			worker.get(30, TimeUnit.SECONDS);
		}
		// Once the busy instance has seen the waiter: at most the bound (5), plus the one grant
		// made before and looked at after (one holder at a time). How long the waiter's node
		// takes to reach the busy instance (a watch's event, then a read) is the machine's, not
		// the bound's, and is not counted.
		assertThat(afterSeen[0]).as("grants of the busy instance after it saw the other waiting")
			.isPositive()
			.isLessThanOrEqualTo(5 + 1);
	}

	/**
	 * Count a grant, from the holder's callback, if its instance already says that another
	 * instance waits for the key: every grant the handoff bound counts, and at most one more per
	 * holder (a grant made before the instance saw the other and looked at after). Looked at by
	 * each holder, not by a thread of its own, so that how the machine schedules threads cannot
	 * move the count.
	 */
	private static void countIfOthersWait(ZkLockTemplate instance, String key, AtomicInteger count) {
		if (instance.keysOthersWaitFor().contains(key)) {
			count.incrementAndGet();
		}
	}

	@Test
	void aWriterIsGrantedWithinTheHandoffBoundWhileAnotherInstancesReadersFlood() throws Exception {
		// Eight threads of one instance take the key shared, back to back, 5 ms each: their
		// grants overlap, so the instance's shared node never has fewer than one holder. A
		// writer of another instance must still get the key within the handoff bound, every time.
		ZkLockTemplate readers = instance(LockSettings.DEFAULTS);
		ZkLockTemplate writer = instance(LockSettings.DEFAULTS);
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicInteger readGrants = new AtomicInteger();
		AtomicInteger readGrantsAfterSeen = new AtomicInteger();
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < 8; t++) {
			workers.add(this.executor.submit(() -> {
				while (running.get()) {
					readers.execute("flooded", LockMode.SHARED, Duration.ofSeconds(20), (lock) -> {
						readGrants.incrementAndGet();
						countIfOthersWait(readers, "flooded", readGrantsAfterSeen);
						Thread.sleep(5);
						return null;
					});
				}
				return null;
			}));
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> readers.lockCounts().handoffs() > 50);
		List<Integer> during = new ArrayList<>();
		List<Integer> afterSeen = new ArrayList<>();
		try {
			for (int round = 0; round < 5; round++) {
				int before = readGrants.get();
				readGrantsAfterSeen.set(0);
				writer.execute("flooded", LockMode.EXCLUSIVE, Duration.ofSeconds(5), (lock) -> {
					during.add(readGrants.get() - before);
					afterSeen.add(readGrantsAfterSeen.get());
					return null;
				});
				Thread.sleep(50);
			}
		}
		finally {
			running.set(false);
			for (Future<?> worker : workers) {
				worker.get(30, TimeUnit.SECONDS);
			}
		}
		// Once the writer's node is seen, at most handoff.max-grants (32) more shared grants, plus
		// those made before and looked at after (one per thread). Before it is seen (the watch's
		// event, then a read), the readers go on: a round of the eight threads per 5 ms, a few rounds on a quiet
		// machine, more on a busy one or against an ensemble of separate processes: the machine's
		// time, not the bound's. Without the bound the writer waited while hundreds to thousands of
		// shared grants were made.
		assertThat(afterSeen).as("shared grants of the readers' instance after it saw the writer waiting").hasSize(5)
			.allSatisfy((grants) -> assertThat(grants).isLessThanOrEqualTo(32 + 8));
		assertThat(afterSeen.stream().mapToInt(Integer::intValue).sum())
			.as("shared grants of the readers' instance after it saw the writer waiting, in all").isPositive();
		assertThat(during).as("shared grants of the readers' instance while the writer waited")
			.allSatisfy((grants) -> assertThat(grants).isLessThan(1000));
	}

	@Test
	void twoBusyInstancesShareTheKey() throws Exception {
		List<ZkLockTemplate> instances = List.of(instance(LockSettings.DEFAULTS), instance(LockSettings.DEFAULTS));
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicInteger[] grants = { new AtomicInteger(), new AtomicInteger() };
		List<Future<?>> workers = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			ZkLockTemplate instance = instances.get(i);
			AtomicInteger count = grants[i];
			for (int t = 0; t < 4; t++) {
				workers.add(this.executor.submit(() -> {
					while (running.get()) {
						instance.execute("shared-by-two", (lock) -> {
							Thread.sleep(1);
							return count.incrementAndGet();
						});
					}
					return null;
				}));
			}
		}
		Thread.sleep(4000);
		running.set(false);
		for (Future<?> worker : workers) {
			worker.get(30, TimeUnit.SECONDS);
		}
		int total = grants[0].get() + grants[1].get();
		assertThat(Math.min(grants[0].get(), grants[1].get())).as("the smaller share of %d grants", total)
			.isGreaterThan(total * 30 / 100);
	}

	@Test
	void sessionExpiryLosesEveryLocalHolderAndWaitersGetANewNode() throws Exception {
		CuratorFramework client = this.support.client(Duration.ofSeconds(4));
		ZkLockTemplate instance = this.support.template(client, HANDOFF);
		CountDownLatch bothInside = new CountDownLatch(2);
		CountDownLatch release = new CountDownLatch(1);
		List<HeldLock> held = new ArrayList<>();
		List<Future<String>> readers = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			readers.add(this.executor.submit(() -> instance.execute("shared", LockMode.SHARED, null, (lock) -> {
				synchronized (held) {
					held.add(lock);
				}
				bothInside.countDown();
				release.await(60, TimeUnit.SECONDS);
				return "read";
			})));
		}
		assertThat(bothInside.await(20, TimeUnit.SECONDS)).isTrue();
		long oldToken = held.get(0).fencingToken();
		Future<Long> writer = this.executor.submit(() -> instance.execute("shared", LockMode.EXCLUSIVE, Duration.ofSeconds(60),
				HeldLock::fencingToken));
		this.support.expireSession(client);
		await().atMost(Duration.ofSeconds(20)).until(() -> held.stream().noneMatch(HeldLock::isValid));
		release.countDown();
		for (Future<String> reader : readers) {
			assertThat(reader).failsWithin(Duration.ofSeconds(20))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(LockLostException.class);
		}
		assertThat(writer.get(40, TimeUnit.SECONDS)).isGreaterThan(oldToken);
	}

	@Test
	void aWaiterWhoseSessionExpiresWaitsOnWithANewSession() throws Exception {
		waiterWhoseSessionExpiresWaitsOn(HANDOFF);
	}

	@Test
	void aWaiterWithANodeOfItsOwnWhoseSessionExpiresWaitsOnWithANewSession() throws Exception {
		waiterWhoseSessionExpiresWaitsOn(LockSettings.PER_CALL);
	}

	private void waiterWhoseSessionExpiresWaitsOn(LockSettings settings) throws Exception {
		ZkLockTemplate holder = instance(settings);
		CuratorFramework waiterClient = this.support.client(Duration.ofSeconds(4));
		ZkLockTemplate waiter = this.support.template(waiterClient, settings);
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<Long> holding = this.executor.submit(() -> holder.execute("expiring", (lock) -> {
			inside.countDown();
			release.await(60, TimeUnit.SECONDS);
			return lock.fencingToken();
		}));
		assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
		Future<Long> waiting = this.executor.submit(() -> waiter.execute("expiring", LockMode.EXCLUSIVE,
				Duration.ofSeconds(60), HeldLock::fencingToken));
		await().atMost(Duration.ofSeconds(20)).until(() -> !waiter.waitingCalls().isEmpty());
		Thread.sleep(500);
		this.support.expireSession(waiterClient);
		// The waiter's node went with its session; once it has a new one it queues again.
		await().atMost(Duration.ofSeconds(20)).until(() -> waiterClient.getZookeeperClient().isConnected()
				&& LockTestSupport.sessionChanged(waiterClient));
		Thread.sleep(1000);
		release.countDown();
		long held = holding.get(20, TimeUnit.SECONDS);
		assertThat(waiting.get(20, TimeUnit.SECONDS)).isGreaterThan(held);
	}

	@Test
	void aTokenAskedForAfterTheCallReleasedTheLockIsRefused() throws Exception {
		ZkLockTemplate instance = instance(HANDOFF);
		CountDownLatch firstInside = new CountDownLatch(1);
		CountDownLatch releaseFirst = new CountDownLatch(1);
		Future<?> first = this.executor.submit(() -> instance.execute("late", (lock) -> {
			firstInside.countDown();
			return releaseFirst.await(30, TimeUnit.SECONDS);
		}));
		assertThat(firstInside.await(20, TimeUnit.SECONDS)).isTrue();
		List<HeldLock> second = new ArrayList<>();
		Future<?> handedOff = this.executor.submit(() -> instance.execute("late", (lock) -> second.add(lock)));
		await().atMost(Duration.ofSeconds(10)).until(() -> !instance.waitingCalls().isEmpty());
		releaseFirst.countDown();
		first.get(20, TimeUnit.SECONDS);
		handedOff.get(20, TimeUnit.SECONDS);
		assertThat(instance.lockCounts().handoffs()).isEqualTo(1);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(second.get(0)::fencingToken)
			.withMessageContaining("'late'");
	}

	private ZkLockTemplate instance(LockSettings settings) {
		return this.support.template(this.support.client(), settings);
	}

}
