package dev.zklock.ltw;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.zklock.LockMode;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.aspects.ZkLockAspectsAutoConfiguration;
import dev.zklock.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.lock.LockCall;
import dev.zklock.lock.LockCallListener;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ZkLocked} in AspectJ mode with load-time weaving: this class's nested beans are
 * compiled by javac and woven by the {@code -javaagent:aspectjweaver.jar} of the test JVM, as
 * {@code META-INF/aop.xml} says.
 */
@EmbeddedZooKeeper
class LoadTimeWovenLockTests {

	private static final int THREADS_PER_INSTANCE = 4;

	private static final int INCREMENTS_PER_THREAD = 25;

	@Test
	void selfInvokedAndPrivateLockedMethodsAreLockedAcrossTwoContexts(ZooKeeperTestServer server) throws Exception {
		Counter counter = new Counter();
		ApplicationContextRunner instance = instance(server, counter);
		instance.run((first) -> instance.run((second) -> {
			ExecutorService executor = Executors.newFixedThreadPool(2 * THREADS_PER_INSTANCE);
			try {
				List<Callable<Void>> callers = new ArrayList<>();
				for (int i = 0; i < THREADS_PER_INSTANCE; i++) {
					callers.add(incrementer(first.getBean(Counting.class)));
					callers.add(incrementer(second.getBean(Counting.class)));
				}
				for (Future<Void> caller : executor.invokeAll(callers, 120, TimeUnit.SECONDS)) {
					caller.get();
				}
			}
			finally {
				executor.shutdownNow();
			}
			assertThat(counter.value()).isEqualTo(2 * 2 * THREADS_PER_INSTANCE * INCREMENTS_PER_THREAD);
			assertThat(counter.mostInside.get()).isEqualTo(1);
		}));
	}

	@Test
	void theLockIsTakenOnceAndNoProxyIsInPlace(ZooKeeperTestServer server) {
		CountingLockCalls lockCalls = new CountingLockCalls();
		instance(server, new Counter()).withBean(CountingLockCalls.class, () -> lockCalls).run((context) -> {
			Counting counting = context.getBean(Counting.class);
			assertThat(AopUtils.isAopProxy(counting)).isFalse();
			counting.increment();
			counting.incrementThroughSelf();
			assertThat(lockCalls.calls.get()).isEqualTo(3);
		});
	}

	private static ApplicationContextRunner instance(ZooKeeperTestServer server, Counter counter) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkLeaderAutoConfiguration.class, ZkLockAspectsAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.advice-mode=aspectj")
			.withBean(Counting.class, () -> new Counting(counter));
	}

	private static Callable<Void> incrementer(Counting counting) {
		return () -> {
			for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
				counting.incrementThroughSelf();
			}
			return null;
		};
	}

	/**
	 * A bean whose locked methods, one public and one private, are called from inside it.
	 */
	static class Counting {

		private final Counter counter;

		Counting(Counter counter) {
			this.counter = counter;
		}

		/**
		 * Increment twice: through the public locked method, then through the private one.
		 */
		public void incrementThroughSelf() {
			increment();
			incrementPrivately();
		}

		@ZkLocked("'counter'")
		public void increment() {
			this.counter.increment();
		}

		@ZkLocked("'counter'")
		private void incrementPrivately() {
			this.counter.increment();
		}

	}

	/**
	 * A counter that loses updates unless its callers exclude each other.
	 */
	static final class Counter {

		private int value;

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger mostInside = new AtomicInteger();

		void increment() {
			this.mostInside.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
			int read = this.value;
			LockSupport.parkNanos(200_000);
			this.value = read + 1;
			this.inside.decrementAndGet();
		}

		synchronized int value() {
			return this.value;
		}

	}

	static final class CountingLockCalls implements LockCallListener {

		final AtomicInteger calls = new AtomicInteger();

		@Override
		public LockCall callStarted(@Nullable String name, List<String> keys, LockMode mode) {
			this.calls.incrementAndGet();
			return LockCall.NONE;
		}

	}

}
