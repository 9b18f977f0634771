package dev.zklock.lock.aop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of an application, each with its own ZooKeeper session, calling the same
 * {@code @ZkLocked} method at once.
 */
@EmbeddedZooKeeper
class ZkLockedTwoInstancesTests {

	private static final int THREADS_PER_INSTANCE = 4;

	private static final int INCREMENTS_PER_THREAD = 25;

	@Test
	void anUnsynchronisedCounterEndsExact(ZooKeeperTestServer server) {
		Counter counter = new Counter();
		ApplicationContextRunner instance = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.withBean(CounterService.class, () -> new CounterService(counter));
		instance.run((first) -> instance.run((second) -> {
			assertThat(sessionId(first)).isNotEqualTo(sessionId(second));
			ExecutorService executor = Executors.newFixedThreadPool(2 * THREADS_PER_INSTANCE);
			try {
				List<Callable<Void>> callers = new ArrayList<>();
				for (int i = 0; i < THREADS_PER_INSTANCE; i++) {
					callers.add(incrementer(first.getBean(CounterService.class)));
					callers.add(incrementer(second.getBean(CounterService.class)));
				}
				for (Future<Void> caller : executor.invokeAll(callers, 60, TimeUnit.SECONDS)) {
					caller.get();
				}
			}
			finally {
				executor.shutdownNow();
			}
			int perInstance = THREADS_PER_INSTANCE * INCREMENTS_PER_THREAD;
			assertThat(first.getBean(CounterService.class).calls()).isEqualTo(perInstance);
			assertThat(second.getBean(CounterService.class).calls()).isEqualTo(perInstance);
			assertThat(counter.value).isEqualTo(2 * perInstance);
			assertThat(counter.mostInside).hasValue(1);
		}));
	}

	private static Callable<Void> incrementer(CounterService service) {
		return () -> {
			for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
				service.increment();
			}
			return null;
		};
	}

	private static long sessionId(ApplicationContext context) throws Exception {
		return context.getBean(CuratorFramework.class).getZookeeperClient().getZooKeeper().getSessionId();
	}

	/**
	 * A counter that loses updates unless its callers exclude each other.
	 */
	static class Counter {

		int value;

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger mostInside = new AtomicInteger();

		void increment() {
			this.mostInside.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
			int read = this.value;
			LockSupport.parkNanos(200_000);
			this.value = read + 1;
			this.inside.decrementAndGet();
		}

	}

	static class CounterService {

		private final Counter counter;

		private final AtomicInteger calls = new AtomicInteger();

		CounterService(Counter counter) {
			this.counter = counter;
		}

		@ZkLocked("'counter'")
		public void increment() {
			this.calls.incrementAndGet();
			this.counter.increment();
		}

		public int calls() {
			return this.calls.get();
		}

	}

}
