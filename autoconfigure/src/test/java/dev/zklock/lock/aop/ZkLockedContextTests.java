package dev.zklock.lock.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.zklock.HeldLock;
import dev.zklock.ReactiveZkLockContext;
import dev.zklock.ZkLockContext;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextSnapshotFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The lock of an asynchronous or reactive {@code @ZkLocked} call as its work sees it: in
 * {@link ZkLockContext} while the method's body runs, in later stages where the context is
 * propagated (Micrometer's Context Propagation, Reactor's automatic context propagation), and
 * never once the call has released it.
 */
@EmbeddedZooKeeper
@Timeout(120)
class ZkLockedContextTests {

	private static final Executor LATER = CompletableFuture.delayedExecutor(2, TimeUnit.MILLISECONDS);

	private final ExecutorService pool = Executors.newFixedThreadPool(2);

	@AfterEach
	void stopPool() throws InterruptedException {
		this.pool.shutdownNow();
		assertThat(this.pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aFutureMethodFencesItsWriteWithTheTokenFromZkLockContext(ZooKeeperTestServer server) {
		runner(server).run((context) -> {
			Stock stock = context.getBean(Stock.class);
			FencedStore store = new FencedStore();
			long first = stock.reserve(store).get(30, TimeUnit.SECONDS);
			long second = stock.reserve(store).get(30, TimeUnit.SECONDS);
			assertThat(first).isPositive();
			assertThat(second).isGreaterThan(first);
			assertThat(store.accepted).containsExactly(first, second);
			// A late write of the first call, after the second: the store refuses it.
			assertThat(store.write(first)).isFalse();
			// The caller's thread never sees the lock; nor does a thread the context is not carried to.
			assertThat(ZkLockContext.find("stock")).isEmpty();
			assertThat(stock.outsideWork()).isEmpty();
		});
	}

	@Test
	void stagesOnContextPropagatingExecutorsSeeTheSameLockAndOthersDoNot(ZooKeeperTestServer server) {
		runner(server).run((context) -> {
			Stock stock = context.getBean(Stock.class);
			List<HeldLock> seen = stock.stages("stages", this.pool).get(30, TimeUnit.SECONDS);
			HeldLock body = seen.get(0);
			assertThat(body.key()).isEqualTo("stages");
			assertThat(seen.get(1)).as("a stage on an executor that captures the context per task").isSameAs(body);
			assertThat(seen.get(2)).as("a thenApplyAsync stage on an executor wrapped with a snapshot").isSameAs(body);
			assertThat(seen.get(3)).as("a stage on a plain executor").isNull();
		});
	}

	@Test
	void aStageThatRunsAfterTheReleaseSeesNoLockThoughItsContextWasCapturedDuringTheCall(
			ZooKeeperTestServer server) {
		runner(server).run((context) -> {
			Stock stock = context.getBean(Stock.class);
			CompletableFuture<Optional<HeldLock>> after = stock.capture("after", this.pool)
				.thenCompose((captured) -> CompletableFuture.supplyAsync(() -> ZkLockContext.find("after"), captured));
			assertThat(after.get(30, TimeUnit.SECONDS)).isEmpty();
			Executor captured = stock.capture("after", this.pool).get(30, TimeUnit.SECONDS);
			CompletableFuture<String> current = CompletableFuture.supplyAsync(() -> {
				assertThatIllegalStateException().isThrownBy(ZkLockContext::current);
				return "none";
			}, captured);
			assertThat(current.get(30, TimeUnit.SECONDS)).isEqualTo("none");
			assertThat(stock.capturedLock().isValid()).isFalse();
		});
	}

	@Test
	void aReactorPipelineWithAutomaticPropagationSeesTheLockInMapAfterPublishOn(ZooKeeperTestServer server) {
		Hooks.enableAutomaticContextPropagation();
		try {
			runner(server).run((context) -> {
				Stock stock = context.getBean(Stock.class);
				List<HeldLock> seen = stock.reactive("reactive").block(Duration.ofSeconds(30));
				assertThat(seen).hasSize(4);
				HeldLock body = seen.get(0);
				assertThat(body.key()).isEqualTo("reactive");
				assertThat(seen.get(1)).as("in map after publishOn").isSameAs(body);
				assertThat(seen.get(2)).as("ReactiveZkLockContext there").isSameAs(body);
				assertThat(seen.get(3)).as("ZkLockContext inside the flatMap").isSameAs(body);
				assertThat(body.isValid()).isFalse();
			});
		}
		finally {
			Hooks.disableAutomaticContextPropagation();
		}
	}

	@Test
	void theBodyOfAReactiveMethodSeesItsLockWithoutAutomaticPropagation(ZooKeeperTestServer server) {
		runner(server).run((context) -> {
			Stock stock = context.getBean(Stock.class);
			HeldLock fromReactor = stock.reactiveBody("body").block(Duration.ofSeconds(30));
			assertThat(fromReactor).isSameAs(stock.bodyLock());
			assertThat(fromReactor.key()).isEqualTo("body");
		});
	}

	private static ApplicationContextRunner runner(ZooKeeperTestServer server) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.withBean(Stock.class);
	}

	/**
	 * A resource that refuses a write whose fencing token is not greater than the last it took.
	 */
	static class FencedStore {

		final List<Long> accepted = new CopyOnWriteArrayList<>();

		private long highest;

		synchronized boolean write(long token) {
			if (token <= this.highest) {
				return false;
			}
			this.highest = token;
			this.accepted.add(token);
			return true;
		}

	}

	static class Stock {

		private volatile Optional<HeldLock> outsideWork;

		private volatile HeldLock capturedLock;

		private volatile HeldLock bodyLock;

		// Read through the proxy, which has fields of its own.

		public Optional<HeldLock> outsideWork() {
			return this.outsideWork;
		}

		public HeldLock capturedLock() {
			return this.capturedLock;
		}

		public HeldLock bodyLock() {
			return this.bodyLock;
		}

		@ZkLocked("'stock'")
		public CompletableFuture<Long> reserve(FencedStore store) {
			long token = ZkLockContext.current().fencingToken();
			this.outsideWork = CompletableFuture.supplyAsync(() -> ZkLockContext.find("stock"), LATER).join();
			return CompletableFuture.supplyAsync(() -> {
				if (!store.write(token)) {
					throw new IllegalStateException("Write refused with token " + token);
				}
				return token;
			}, LATER);
		}

		@ZkLocked("#key")
		public CompletableFuture<List<HeldLock>> stages(String key, ExecutorService pool) {
			HeldLock body = ZkLockContext.current();
			Executor perTask = ContextExecutorService.wrap(pool);
			Executor snapshot = ContextSnapshotFactory.builder().build().captureAll().wrapExecutor(pool);
			return CompletableFuture.supplyAsync(() -> ZkLockContext.find(key).orElse(null), perTask)
				.thenApplyAsync((first) -> Arrays.asList(body, first, ZkLockContext.find(key).orElse(null)), snapshot)
				.thenApplyAsync((seen) -> {
					List<HeldLock> all = new ArrayList<>(seen);
					all.add(ZkLockContext.find(key).orElse(null));
					return all;
				}, pool);
		}

		@ZkLocked("#key")
		public CompletableFuture<Executor> capture(String key, ExecutorService pool) {
			this.capturedLock = ZkLockContext.current();
			return CompletableFuture.completedFuture(ContextSnapshotFactory.builder().build().captureAll().wrapExecutor(pool));
		}

		@ZkLocked("#key")
		public Mono<List<HeldLock>> reactive(String key) {
			HeldLock body = ZkLockContext.current();
			return Mono.just(key)
				.publishOn(Schedulers.boundedElastic())
				.map((value) -> ZkLockContext.current())
				.flatMap((mapped) -> ReactiveZkLockContext.current()
					.map((fromReactor) -> Arrays.asList(body, mapped, fromReactor, ZkLockContext.current())));
		}

		@ZkLocked("#key")
		public Mono<HeldLock> reactiveBody(String key) {
			this.bodyLock = ZkLockContext.current();
			return ReactiveZkLockContext.current();
		}

	}

}
