package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.LockTimeoutException;
import dev.zklock.ReactiveZkLockContext;
import dev.zklock.ReactiveZkLockTemplate;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reactive calls of {@link ReactiveZkLockTemplate}: locks taken on subscription and released on
 * complete, error and cancel, across several instances (separate sessions).
 */
@EmbeddedZooKeeper
@Timeout(180)
class ReactiveLockTests {

	private LockTestSupport support;

	private CuratorFramework observer;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.support = new LockTestSupport(server);
		this.observer = this.support.client();
	}

	@AfterEach
	void tearDown() throws Exception {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
		this.support.close();
	}

	@Test
	void reactiveCallsOfThreeInstancesExcludeEachOther() {
		List<ReactiveZkLockTemplate> instances = List.of(instance(), instance(), instance());
		int[] counter = new int[1];
		AtomicInteger inside = new AtomicInteger();
		AtomicBoolean overlap = new AtomicBoolean();
		List<Mono<Integer>> calls = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			for (ReactiveZkLockTemplate instance : instances) {
				calls.add(instance.executeMono(List.of("counter"), LockMode.EXCLUSIVE, null, (lock) -> Mono.fromCallable(() -> {
					if (inside.incrementAndGet() != 1) {
						overlap.set(true);
					}
					return counter[0];
				}).delayElement(Duration.ofMillis(1)).map((read) -> {
					counter[0] = read + 1;
					inside.decrementAndGet();
					return read + 1;
				})));
			}
		}
		List<Integer> results = Flux.merge(calls).collectList().block(Duration.ofSeconds(150));
		assertThat(overlap).isFalse();
		assertThat(counter[0]).isEqualTo(120);
		assertThat(results).doesNotHaveDuplicates().hasSize(120);
	}

	@Test
	void nothingHappensWithoutASubscription() throws Exception {
		ReactiveZkLockTemplate instance = instance();
		AtomicBoolean ran = new AtomicBoolean();
		Mono<String> call = instance.executeMono(List.of("lazy"), LockMode.EXCLUSIVE, null,
				(lock) -> Mono.fromCallable(() -> {
					ran.set(true);
					return "ran";
				}));
		Thread.sleep(200);
		assertThat(LockTestSupport.lockNodes(this.observer, "lazy")).isEmpty();
		assertThat(ran).isFalse();
		assertThat(call.block(Duration.ofSeconds(20))).isEqualTo("ran");
	}

	@Test
	void theLockIsInTheReactorContextOfTheWork() {
		ReactiveZkLockTemplate instance = instance();
		AtomicReference<HeldLock> given = new AtomicReference<>();
		StepVerifier.create(instance.execute(List.of("context"), LockMode.SHARED, null, (lock) -> {
			given.set(lock);
			return ReactiveZkLockContext.current()
				.flatMap((current) -> Mono.fromCompletionStage(current.fencingTokenAsync())
					.map((token) -> current.key() + " " + current.mode() + " " + current.isValid() + " "
							+ (current == given.get()) + " " + (token > 0)));
		})).expectNext("context SHARED true true true").verifyComplete();
		StepVerifier.create(ReactiveZkLockContext.current()).expectError(IllegalStateException.class).verify();
	}

	@Test
	void anErrorReleasesTheLockAndReachesTheSubscriber() throws Exception {
		ReactiveZkLockTemplate instance = instance();
		ZkLockTemplate other = this.support.template(this.support.client(), false);
		StepVerifier.create(instance.execute("failing", (lock) -> Mono.error(new IllegalStateException("boom"))))
			.expectErrorMessage("boom")
			.verify(Duration.ofSeconds(20));
		assertThat(LockTestSupport.lockNodes(this.observer, "failing")).isEmpty();
		assertThat(other.tryExecute("failing", LockMode.EXCLUSIVE, Duration.ZERO, (lock) -> "free")).contains("free");
	}

	@Test
	void aCancelledSubscriptionReleasesTheLockAndTheNextWaiterGetsIt() throws Exception {
		ReactiveZkLockTemplate instance = instance();
		ZkLockTemplate other = this.support.template(this.support.client(), false);
		List<Long> seen = Flux.<Long>from(instance.execute("endless", (lock) -> Flux.interval(Duration.ofMillis(10))))
			.take(3)
			.collectList()
			.block(Duration.ofSeconds(20));
		assertThat(seen).containsExactly(0L, 1L, 2L);
		String next = other.execute("endless", LockMode.EXCLUSIVE, Duration.ofSeconds(20), (lock) -> "next");
		assertThat(next).isEqualTo("next");
		await().atMost(Duration.ofSeconds(20)).until(() -> LockTestSupport.lockNodes(this.observer, "endless").isEmpty());
	}

	@Test
	void aSubscriptionCancelledWhileItWaitsLeavesNoNodeBehind() throws Exception {
		ZkLockTemplate holder = this.support.template(this.support.client(), false);
		ReactiveZkLockTemplate waiter = instance();
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holding = this.executor.submit(() -> holder.execute("waiting", (lock) -> {
			inside.countDown();
			release.await(60, TimeUnit.SECONDS);
			return null;
		}));
		assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
		AtomicBoolean ran = new AtomicBoolean();
		var subscription = waiter.execute(List.of("waiting"), LockMode.EXCLUSIVE, Duration.ofSeconds(60), (lock) -> {
			ran.set(true);
			return Mono.just("ran");
		}).subscribe();
		await().atMost(Duration.ofSeconds(20)).until(() -> LockTestSupport.lockNodes(this.observer, "waiting").size() == 2);
		subscription.dispose();
		await().atMost(Duration.ofSeconds(20)).until(() -> LockTestSupport.lockNodes(this.observer, "waiting").size() == 1);
		release.countDown();
		holding.get(20, TimeUnit.SECONDS);
		await().atMost(Duration.ofSeconds(20)).until(() -> LockTestSupport.lockNodes(this.observer, "waiting").isEmpty());
		assertThat(ran).isFalse();
	}

	@Test
	void aLockNotObtainedInTimeGivesATimeoutErrorOrTheFallback() throws Exception {
		ZkLockTemplate holder = this.support.template(this.support.client(), false);
		ReactiveZkLockTemplate waiter = instance();
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holding = this.executor.submit(() -> holder.execute("busy", (lock) -> {
			inside.countDown();
			release.await(60, TimeUnit.SECONDS);
			return null;
		}));
		assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
		StepVerifier.create(waiter.executeMono(List.of("busy"), LockMode.EXCLUSIVE, Duration.ofMillis(300),
				(lock) -> Mono.just("ran")))
			.expectError(LockTimeoutException.class)
			.verify(Duration.ofSeconds(20));
		StepVerifier.create(waiter.executeMonoOrElse(null, List.of("busy"), LockMode.EXCLUSIVE, Duration.ZERO,
				(lock) -> Mono.just("ran"), Mono::empty))
			.verifyComplete();
		release.countDown();
		holding.get(20, TimeUnit.SECONDS);
	}

	@Test
	void aLockLostWhileTheWorkRanEndsTheSequenceWithLockLost() {
		CuratorFramework client = this.support.client(Duration.ofSeconds(4));
		ReactiveZkLockTemplate instance = new ReactiveZkLockTemplate(this.support.template(client, false));
		AtomicReference<HeldLock> held = new AtomicReference<>();
		Mono<String> work = Mono.fromRunnable(() -> {
			try {
				this.support.expireSession(client);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}).then(Mono.fromCallable(() -> {
			await().atMost(Duration.ofSeconds(20)).until(() -> !held.get().isValid());
			return "done";
		})).subscribeOn(Schedulers.boundedElastic());
		StepVerifier.create(instance.executeMono(List.of("lost"), LockMode.EXCLUSIVE, null, (lock) -> {
			held.set(lock);
			return work;
		})).expectError(LockLostException.class).verify(Duration.ofSeconds(40));
	}

	private ReactiveZkLockTemplate instance() {
		return new ReactiveZkLockTemplate(this.support.template(this.support.client(), false));
	}

}
