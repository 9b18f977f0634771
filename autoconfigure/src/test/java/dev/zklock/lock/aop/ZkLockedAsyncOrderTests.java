package dev.zklock.lock.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.ZkLockContext;
import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.lock.LockCall;
import dev.zklock.lock.LockCallListener;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring's {@code @Async} on a {@code @ZkLocked} method, in both orders: by default the
 * asynchronous advice runs first, and the lock is taken on the task executor's thread; with
 * {@code @EnableAsync(order = Ordered.HIGHEST_PRECEDENCE)} the lock is taken on the caller's
 * thread, before the hand-off, and a {@code CompletableFuture} method holds it across the
 * hand-off until its future completes (a {@code void} method only while the task is handed
 * off); the body sees it where the task executor propagates the context.
 */
@EmbeddedZooKeeper
@Timeout(120)
class ZkLockedAsyncOrderTests {

	private static final String CALLER = "order-caller";

	@Test
	void byDefaultTheLockIsTakenOnTheTaskExecutorsThread(ZooKeeperTestServer server) {
		runner(server).withUserConfiguration(AsyncFirst.class).run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			LockThreads lockThreads = context.getBean(LockThreads.class);
			Seen seen = onCaller(() -> jobs.future("default-future"));
			assertThat(lockThreads.threads).singleElement().asString().startsWith("async-");
			assertThat(seen.lockedKey).isEqualTo("default-future");
			lockThreads.threads.clear();
			CompletableFuture<Seen> fromVoid = new CompletableFuture<>();
			onCaller(() -> {
				jobs.run("default-void", fromVoid);
				return CompletableFuture.completedFuture(null);
			});
			Seen ran = fromVoid.get(30, TimeUnit.SECONDS);
			assertThat(lockThreads.threads).singleElement().asString().startsWith("async-");
			assertThat(ran.thread).startsWith("async-");
			assertThat(ran.lockedKey).isEqualTo("default-void");
		});
	}

	@Test
	void withTheAsyncAdviceInsideTheLockIsTakenOnTheCallersThreadAndHeldAcrossTheHandOff(
			ZooKeeperTestServer server) {
		runner(server).withUserConfiguration(LockFirst.class).run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			LockThreads lockThreads = context.getBean(LockThreads.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			CountDownLatch started = new CountDownLatch(1);
			CountDownLatch finish = new CountDownLatch(1);
			CompletableFuture<Seen> held = callerThread(() -> jobs.holding("lock-first", started, finish));
			assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
			assertThat(lockThreads.threads).containsExactly(CALLER);
			// The method runs on the task executor while the lock, taken before the hand-off, is held.
			assertThat(template.tryExecute("lock-first", LockMode.EXCLUSIVE, Duration.ZERO, (lock) -> "free"))
				.isEmpty();
			finish.countDown();
			Seen seen = held.get(30, TimeUnit.SECONDS);
			assertThat(seen.thread).startsWith("async-");
			// The task decorator carried the caller's context to the task: the body sees its lock.
			assertThat(seen.lockedKey).isEqualTo("lock-first");
			assertThat(seen.lock.isValid()).isFalse();
			assertThat(template.tryExecute("lock-first", LockMode.EXCLUSIVE, Duration.ZERO, (lock) -> "free"))
				.contains("free");
			// A void method: the lock is held only while the task is handed off, not while it runs.
			CountDownLatch returned = new CountDownLatch(1);
			CompletableFuture<Seen> fromVoid = new CompletableFuture<>();
			callerThread(() -> {
				jobs.runWhen("lock-first-void", returned, fromVoid);
				return CompletableFuture.completedFuture(null);
			}).get(30, TimeUnit.SECONDS);
			assertThat(template.tryExecute("lock-first-void", LockMode.EXCLUSIVE, Duration.ZERO,
					(lock) -> "free"))
				.contains("free");
			returned.countDown();
			Seen ran = fromVoid.get(30, TimeUnit.SECONDS);
			assertThat(ran.thread).startsWith("async-");
			assertThat(ran.lockedKey).isNull();
		});
	}

	private static ApplicationContextRunner runner(ZooKeeperTestServer server) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZooKeeperAutoConfiguration.class,
					ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.withBean(LockThreads.class)
			.withBean(Jobs.class);
	}

	/**
	 * Call on a thread of the test's own, named so that the lock listener can tell it.
	 */
	private static Seen onCaller(Supplier<CompletableFuture<Seen>> call) throws Exception {
		CompletableFuture<Seen> seen = callerThread(call);
		return seen.get(30, TimeUnit.SECONDS);
	}

	private static CompletableFuture<Seen> callerThread(Supplier<CompletableFuture<Seen>> call)
			throws InterruptedException {
		CompletableFuture<CompletableFuture<Seen>> made = new CompletableFuture<>();
		Thread caller = new Thread(() -> made.complete(call.get()), CALLER);
		caller.start();
		caller.join(30_000);
		return made.join();
	}

	record Seen(String thread, @Nullable String lockedKey, @Nullable HeldLock lock) {

		static Seen now(String key) {
			HeldLock lock = ZkLockContext.find(key).orElse(null);
			return new Seen(Thread.currentThread().getName(), (lock != null) ? lock.key() : null, lock);
		}

	}

	/**
	 * Records the thread on which each call asks for its lock.
	 */
	static class LockThreads implements LockCallListener {

		final List<String> threads = new CopyOnWriteArrayList<>();

		@Override
		public LockCall callStarted(@Nullable String name, List<String> keys, LockMode mode) {
			this.threads.add(Thread.currentThread().getName());
			return LockCall.NONE;
		}

	}

	static class Jobs {

		@Async
		@ZkLocked("#key")
		public CompletableFuture<Seen> future(String key) {
			return CompletableFuture.completedFuture(Seen.now(key));
		}

		@Async
		@ZkLocked("#key")
		public void run(String key, CompletableFuture<Seen> seen) {
			seen.complete(Seen.now(key));
		}

		@Async
		@ZkLocked("#key")
		public void runWhen(String key, CountDownLatch returned, CompletableFuture<Seen> seen) {
			try {
				assertThat(returned.await(30, TimeUnit.SECONDS)).isTrue();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			seen.complete(Seen.now(key));
		}

		@Async
		@ZkLocked("#key")
		public CompletableFuture<Seen> holding(String key, CountDownLatch started, CountDownLatch finish) {
			started.countDown();
			try {
				assertThat(finish.await(30, TimeUnit.SECONDS)).isTrue();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return CompletableFuture.failedFuture(ex);
			}
			return CompletableFuture.completedFuture(Seen.now(key));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class AsyncFirst {

		@Bean(destroyMethod = "shutdown")
		ThreadPoolTaskExecutor taskExecutor() {
			return executor();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync(order = Ordered.HIGHEST_PRECEDENCE)
	static class LockFirst {

		@Bean(destroyMethod = "shutdown")
		ThreadPoolTaskExecutor taskExecutor() {
			ThreadPoolTaskExecutor executor = executor();
			executor.setTaskDecorator(new ContextPropagatingTaskDecorator());
			return executor;
		}

	}

	static ThreadPoolTaskExecutor executor() {
		ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
		executor.setThreadNamePrefix("async-");
		executor.setCorePoolSize(2);
		executor.initialize();
		return executor;
	}

}
