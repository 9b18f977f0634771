package dev.zklock.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.EmbeddedZooKeeperInitializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.task.AsyncTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Locked calls on virtual threads, as an application with {@code spring.threads.virtual.enabled=true}
 * makes them: many virtual threads waiting for one lock on a machine with few carrier threads. A
 * waiter that pinned its carrier (waiting in a monitor on Java 21) could leave no carrier for the
 * holder, and the calls would time out. The build's own Java, 17, has no virtual threads: these
 * run on Java 21 and 25 (.ci/run).
 */
@EmbeddedZooKeeper
@EnabledForJreRange(min = JRE.JAVA_21, disabledReason = "virtual threads came in Java 21; .ci/run runs these on 21 and 25")
class VirtualThreadsTests {

	private static final int CALLERS = 32;

	private static final int CALLS_PER_CALLER = 4;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(EmbeddedZooKeeperInitializer.of(VirtualThreadsTests.class))
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, ZooKeeperAutoConfiguration.class,
				ZkLockAutoConfiguration.class))
		.withPropertyValues("spring.threads.virtual.enabled=true")
		.withBean(Counter.class);

	@Test
	void manyVirtualThreadsTakeTurnsOnOneLock() {
		this.contextRunner.run((context) -> {
			AsyncTaskExecutor executor = context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class);
			Counter counter = context.getBean(Counter.class);
			List<Future<?>> callers = new ArrayList<>();
			for (int i = 0; i < CALLERS; i++) {
				callers.add(executor.submit(() -> {
					for (int call = 0; call < CALLS_PER_CALLER; call++) {
						counter.increment("shared");
					}
				}));
			}
			for (Future<?> caller : callers) {
				caller.get(120, TimeUnit.SECONDS);
			}
			assertThat(counter.value()).as("no increment lost").isEqualTo(CALLERS * CALLS_PER_CALLER);
			assertThat(counter.mostInside()).as("one caller at a time inside the lock").isEqualTo(1);
			assertThat(counter.onPlatformThreads()).as("calls that ran on a platform thread").isZero();
		});
	}

	@Test
	void theWorkOfAnAsynchronousLockedCallRunsOnAVirtualThread() {
		this.contextRunner.run((context) -> {
			Thread worker = context.getBean(ZkLockTemplate.class)
				.executeAsync("virtual", (lock) -> CompletableFuture.completedFuture(Thread.currentThread()))
				.get(20, TimeUnit.SECONDS);
			assertThat(isVirtual(worker)).as("%s is virtual", worker).isTrue();
		});
	}

	private static boolean isVirtual(Thread thread) {
		try {
			return (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static class Counter {

		private final AtomicInteger inside = new AtomicInteger();

		private final AtomicInteger mostInside = new AtomicInteger();

		private final AtomicInteger onPlatformThreads = new AtomicInteger();

		private int value;

		@ZkLocked(key = "'counter:' + #name")
		public void increment(String name) {
			this.mostInside.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
			if (!isVirtual(Thread.currentThread())) {
				this.onPlatformThreads.incrementAndGet();
			}
			int read = this.value;
			// A read-modify-write with a pause inside: without the lock, increments would be lost.
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			this.value = read + 1;
			this.inside.decrementAndGet();
		}

		public int value() {
			return this.value;
		}

		public int mostInside() {
			return this.mostInside.get();
		}

		public int onPlatformThreads() {
			return this.onPlatformThreads.get();
		}

	}

}
