package dev.zklock.lock.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.HeldLock;
import dev.zklock.LockTimeoutException;
import dev.zklock.ReactiveZkLockContext;
import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ZkLocked} methods that return a {@code CompletableFuture}, a {@code Mono} or a
 * {@code Flux}, in two instances of an application (two contexts, two ZooKeeper sessions): the
 * lock is held until the work ends, not until the method returns.
 */
@EmbeddedZooKeeper
@Timeout(180)
class ZkLockedAsyncTests {

	private static final Executor LATER = CompletableFuture.delayedExecutor(2, TimeUnit.MILLISECONDS);

	@Test
	void asyncAndReactiveWorkOfTwoInstancesKeepsAnUnsynchronisedCounterExact(ZooKeeperTestServer server) {
		Counter counter = new Counter();
		ApplicationContextRunner instance = runner(server, counter);
		instance.run((first) -> instance.run((second) -> {
			List<CompletableFuture<Integer>> futures = new ArrayList<>();
			List<Mono<Integer>> monos = new ArrayList<>();
			for (int i = 0; i < 30; i++) {
				for (ConfigurableApplicationContext context : List.of(first, second)) {
					CounterService service = context.getBean(CounterService.class);
					futures.add(service.incrementLater());
					monos.add(service.incrementReactive());
				}
			}
			List<Integer> reactive = Flux.merge(monos).collectList().block(Duration.ofSeconds(120));
			for (CompletableFuture<Integer> future : futures) {
				future.get(120, TimeUnit.SECONDS);
			}
			assertThat(reactive).hasSize(60);
			assertThat(counter.value).isEqualTo(120);
			assertThat(counter.overlap).isFalse();
		}));
	}

	@Test
	void theFutureMethodRunsOnlyOnceTheLockIsHeldAndTheLockIsHeldUntilItsWorkEnds(ZooKeeperTestServer server) {
		Counter counter = new Counter();
		ApplicationContextRunner instance = runner(server, counter);
		instance.run((first) -> instance.run((second) -> {
			CountDownLatch inside = new CountDownLatch(1);
			CompletableFuture<String> work = new CompletableFuture<>();
			CompletableFuture<String> holding = first.getBean(CounterService.class).hold(inside, work);
			assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
			CounterService other = second.getBean(CounterService.class);
			// The method has returned its future: the lock is still held until the future completes.
			assertThat(other.tryHold()).failsWithin(Duration.ofSeconds(20))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(LockTimeoutException.class);
			assertThat(other.skipHold().get(20, TimeUnit.SECONDS)).isNull();
			StepVerifier.create(other.skipHoldReactive()).verifyComplete();
			StepVerifier.create(other.tryHoldReactive()).expectError(LockTimeoutException.class).verify();
			work.complete("done");
			assertThat(holding.get(20, TimeUnit.SECONDS)).isEqualTo("done");
			assertThat(other.tryHold().get(20, TimeUnit.SECONDS)).isEqualTo("held");
			assertThat(counter.tryHoldCalls).hasValue(1);
		}));
	}

	@Test
	void aFluxHoldsTheLockWhileItEmitsAndSeesItInTheReactorContext(ZooKeeperTestServer server) {
		Counter counter = new Counter();
		ApplicationContextRunner instance = runner(server, counter);
		instance.run((context) -> {
			CounterService service = context.getBean(CounterService.class);
			StepVerifier.create(service.stream("items"))
				.expectNext("items EXCLUSIVE true", "items EXCLUSIVE true")
				.verifyComplete();
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			assertThat(template.heldLocks()).isEmpty();
		});
	}

	private static ApplicationContextRunner runner(ZooKeeperTestServer server, Counter counter) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.withBean(CounterService.class, () -> new CounterService(counter));
	}

	static class Counter {

		int value;

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger tryHoldCalls = new AtomicInteger();

		volatile boolean overlap;

		int enter() {
			if (this.inside.incrementAndGet() != 1) {
				this.overlap = true;
			}
			return this.value;
		}

		int leave(int read) {
			this.value = read + 1;
			this.inside.decrementAndGet();
			return this.value;
		}

	}

	static class CounterService {

		private final Counter counter;

		CounterService(Counter counter) {
			this.counter = counter;
		}

		@ZkLocked("'counter'")
		public CompletableFuture<Integer> incrementLater() {
			int read = this.counter.enter();
			return CompletableFuture.supplyAsync(() -> this.counter.leave(read), LATER);
		}

		@ZkLocked("'counter'")
		public Mono<Integer> incrementReactive() {
			return Mono.fromCallable(this.counter::enter)
				.delayElement(Duration.ofMillis(2))
				.map(this.counter::leave);
		}

		@ZkLocked("'held'")
		public CompletableFuture<String> hold(CountDownLatch inside, CompletableFuture<String> work) {
			inside.countDown();
			return work;
		}

		@ZkLocked(key = "'held'", waitTime = "200ms")
		public CompletableFuture<String> tryHold() {
			this.counter.tryHoldCalls.incrementAndGet();
			return CompletableFuture.completedFuture("held");
		}

		@ZkLocked(key = "'held'", waitTime = "0", onTimeout = OnLockTimeout.SKIP)
		public CompletableFuture<String> skipHold() {
			return CompletableFuture.completedFuture("held");
		}

		@ZkLocked(key = "'held'", waitTime = "0", onTimeout = OnLockTimeout.SKIP)
		public Mono<String> skipHoldReactive() {
			return Mono.just("held");
		}

		@ZkLocked(key = "'held'", waitTime = "200ms")
		public Mono<String> tryHoldReactive() {
			return Mono.just("held");
		}

		@ZkLocked("#key")
		public Flux<String> stream(String key) {
			return ReactiveZkLockContext.current()
				.map((HeldLock lock) -> lock.key() + " " + lock.mode() + " " + lock.isValid())
				.repeat(1);
		}

	}

}
