package dev.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.zklock.LockMode;
import dev.zklock.ReactiveZkLockTemplate;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reactive calls whose subscriber cancels at any moment, the grant included: a lease granted to a
 * cancelled call is released, and another instance (another session) takes the key at once.
 */
@EmbeddedZooKeeper
@Timeout(180)
class ReactiveCancelTests {

	private static final int ROUNDS = 100;

	private static final int CALLS = 500;

	private LockTestSupport support;

	private CuratorFramework observer;

	private final HoldingExecutor executor = new HoldingExecutor();

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.support = new LockTestSupport(server);
		this.observer = this.support.client();
	}

	@AfterEach
	void tearDown() throws Exception {
		this.support.close();
		this.executor.close();
	}

	@Test
	void aSubscriberCancellingBetweenTheGrantAndTheHopToTheExecutorLeavesTheKeyFree() throws Exception {
		ReactiveZkLockTemplate instance = instanceOnHoldingExecutor();
		ZkLockTemplate other = this.support.template();
		AtomicInteger ran = new AtomicInteger();
		for (int round = 0; round < ROUNDS; round++) {
			this.executor.hold();
			Disposable call = instance.executeMono(List.of("hop"), LockMode.EXCLUSIVE, Duration.ofSeconds(10),
					(lock) -> Mono.fromRunnable(ran::incrementAndGet)).subscribe();
			// The grant completes the call's lease; the lease's hop to the executor is held.
			this.executor.nextHeld().run();
			call.dispose();
			this.executor.release();
			assertAnotherSessionTakesTheKey(other, "hop", "round " + round);
		}
		assertThat(ran).as("work run after its subscriber cancelled").hasValue(0);
	}

	@Test
	void aSubscriberCancellingWhileTheGrantWaitsForTheExecutorLeavesTheKeyFree() throws Exception {
		ReactiveZkLockTemplate instance = instanceOnHoldingExecutor();
		ZkLockTemplate other = this.support.template();
		AtomicInteger ran = new AtomicInteger();
		for (int round = 0; round < ROUNDS; round++) {
			this.executor.hold();
			Disposable call = instance.executeMono(List.of("grant"), LockMode.EXCLUSIVE, Duration.ofSeconds(10),
					(lock) -> Mono.fromRunnable(ran::incrementAndGet)).subscribe();
			// The key is granted; the grant waits to complete the call's acquisition.
			Runnable grant = this.executor.nextHeld();
			call.dispose();
			grant.run();
			this.executor.release();
			assertAnotherSessionTakesTheKey(other, "grant", "round " + round);
		}
		assertThat(ran).as("work run after its subscriber cancelled").hasValue(0);
	}

	@Test
	void callsCancelledAtRandomMomentsLeaveTheKeyFree() throws Exception {
		ReactiveZkLockTemplate instance = new ReactiveZkLockTemplate(this.support.template());
		ZkLockTemplate other = this.support.template();
		long seed = System.nanoTime();
		Random random = new Random(seed);
		CountDownLatch ended = new CountDownLatch(CALLS);
		List<Throwable> unexpected = new CopyOnWriteArrayList<>();
		AtomicInteger ran = new AtomicInteger();
		int toTheEnd = 0;
		for (int i = 0; i < CALLS; i++) {
			Mono<Integer> call = instance.executeMono(List.of("stress"), LockMode.EXCLUSIVE, Duration.ofSeconds(30),
					(lock) -> Mono.fromCallable(ran::incrementAndGet).delayElement(Duration.ofMillis(random.nextInt(3))));
			long startMicros = random.nextInt(1_000_000);
			long cancelMicros = random.nextInt(5_000);
			int ending = random.nextInt(4);
			Publisher<?> cancelling = switch (ending) {
				case 0 -> call.timeout(Duration.ofNanos(TimeUnit.MICROSECONDS.toNanos(cancelMicros)))
					.onErrorResume(TimeoutException.class, (ex) -> Mono.empty());
				case 1 -> call.flux().take(0);
				default -> call;
			};
			Disposable subscription = Mono.delay(Duration.ofNanos(TimeUnit.MICROSECONDS.toNanos(startMicros)))
				.thenMany(cancelling)
				.doFinally((signal) -> ended.countDown())
				.subscribe(null, unexpected::add);
			if (ending == 2) {
				Schedulers.parallel().schedule(subscription::dispose, startMicros + cancelMicros, TimeUnit.MICROSECONDS);
			}
			else if (ending == 3) {
				toTheEnd++;
			}
		}
		String described = "seed " + seed;
		assertThat(ended.await(60, TimeUnit.SECONDS)).as("every call ended (%s)", described).isTrue();
		assertThat(unexpected).as(described).isEmpty();
		assertThat(ran.get()).as(described).isGreaterThanOrEqualTo(toTheEnd);
		assertAnotherSessionTakesTheKey(other, "stress", described);
	}

	private ReactiveZkLockTemplate instanceOnHoldingExecutor() {
		ZkLockTemplate template = this.support.template();
		template.setAsyncExecutor(this.executor);
		return new ReactiveZkLockTemplate(template);
	}

	private void assertAnotherSessionTakesTheKey(ZkLockTemplate other, String key, String described) throws Exception {
		assertThat(other.tryExecute(key, LockMode.EXCLUSIVE, Duration.ofSeconds(5), (lock) -> "taken"))
			.as("another session takes the key within 5 seconds after %s", described)
			.contains("taken");
		await().atMost(Duration.ofSeconds(5))
			.alias("no lock node under the key after " + described)
			.until(() -> LockTestSupport.lockNodes(this.observer, key).isEmpty());
	}

}
