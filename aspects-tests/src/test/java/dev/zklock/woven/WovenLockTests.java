package dev.zklock.woven;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.zklock.aspects.ZkLockAspectsAutoConfiguration;
import dev.zklock.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code @ZkLocked} in AspectJ mode, on classes woven at compile time: two application contexts,
 * each with its own ZooKeeper session, call locked methods from inside their beans.
 */
@EmbeddedZooKeeper
class WovenLockTests {

	private static final int THREADS_PER_INSTANCE = 4;

	private static final int INCREMENTS_PER_THREAD = 25;

	@Test
	void selfInvokedLockedMethodIsLockedAcrossTwoContexts(ZooKeeperTestServer server) {
		assertExactAcrossTwoContexts(server, (context) -> context.getBean(Counting.class)::incrementThroughSelf);
	}

	@Test
	void privateLockedMethodIsLockedAcrossTwoContexts(ZooKeeperTestServer server) {
		assertExactAcrossTwoContexts(server, (context) -> context.getBean(PrivateCounting.class)::increment);
	}

	@Test
	void theLockIsTakenOnceAndNoProxyIsInPlace(ZooKeeperTestServer server) {
		CountingLockCalls lockCalls = new CountingLockCalls();
		UnsafeCounter counter = new UnsafeCounter();
		instance(server, "aspectj", counter).withBean(CountingLockCalls.class, () -> lockCalls)
			.withBean(PrivateCounting.class, () -> new PrivateCounting(counter))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean("zklockLockedAdvisor");
				Counting counting = context.getBean(Counting.class);
				assertThat(AopUtils.isAopProxy(counting)).isFalse();
				assertThat(AopUtils.isAopProxy(context.getBean(PrivateCounting.class))).isFalse();
				counting.increment();
				counting.incrementThroughSelf();
				context.getBean(PrivateCounting.class).increment();
				assertThat(lockCalls.calls()).isEqualTo(3);
				assertThat(counter.value()).isEqualTo(3);
			});
	}

	@Test
	void eachContextsBeansAreAdvisedByThatContext(ZooKeeperTestServer server) {
		CountingLockCalls firstCalls = new CountingLockCalls();
		CountingLockCalls secondCalls = new CountingLockCalls();
		UnsafeCounter counter = new UnsafeCounter();
		instance(server, "aspectj", counter).withBean(CountingLockCalls.class, () -> firstCalls)
			.run((first) -> instance(server, "aspectj", counter).withBean(CountingLockCalls.class, () -> secondCalls)
				.run((second) -> {
					second.getBean(Counting.class).incrementThroughSelf();
					second.getBean(Counting.class).incrementThroughSelf();
					first.getBean(Counting.class).incrementThroughSelf();
					assertThat(firstCalls.calls()).isEqualTo(1);
					assertThat(secondCalls.calls()).isEqualTo(2);
				}));
	}

	@Test
	void anObjectThatIsNoBeanIsAdvisedByTheOneContextInAspectjMode(ZooKeeperTestServer server) {
		CountingLockCalls lockCalls = new CountingLockCalls();
		Counting notABean = new Counting(new UnsafeCounter());
		notABean.incrementThroughSelf();
		instance(server, "aspectj", new UnsafeCounter()).withBean(CountingLockCalls.class, () -> lockCalls)
			.run((first) -> {
				notABean.incrementThroughSelf();
				assertThat(lockCalls.calls()).isEqualTo(1);
				instance(server, "aspectj", new UnsafeCounter()).run((second) -> assertThatIllegalStateException()
					.isThrownBy(notABean::incrementThroughSelf)
					.withMessageContaining("Counting.increment() was called on an object that is no bean of the 2 "
							+ "application contexts running with zklock.advice-mode=aspectj"));
			});
	}

	@Test
	void inProxyModeWovenCodeDoesNotLockASecondTime(ZooKeeperTestServer server) {
		CountingLockCalls lockCalls = new CountingLockCalls();
		UnsafeCounter counter = new UnsafeCounter();
		instance(server, "proxy", counter).withBean(CountingLockCalls.class, () -> lockCalls).run((context) -> {
			assertThat(context).hasNotFailed().hasBean("zklockLockedAdvisor");
			Counting counting = context.getBean(Counting.class);
			assertThat(AopUtils.isAopProxy(counting)).isTrue();
			counting.increment();
			assertThat(lockCalls.calls()).isEqualTo(1);
			counting.incrementThroughSelf();
			assertThat(lockCalls.calls()).as("a self-invocation, which a proxy does not see").isEqualTo(1);
			assertThat(counter.value()).isEqualTo(2);
		});
	}

	@Test
	void aLockedMethodRunsUnderItsLock(ZooKeeperTestServer server) {
		instance(server, "aspectj", new UnsafeCounter()).withBean(Checked.class).run((context) -> {
			context.getBean(Checked.class).run();
		});
	}

	private void assertExactAcrossTwoContexts(ZooKeeperTestServer server,
			Function<ApplicationContext, Runnable> increment) {
		UnsafeCounter counter = new UnsafeCounter();
		ApplicationContextRunner instance = instance(server, "aspectj", counter)
			.withBean(PrivateCounting.class, () -> new PrivateCounting(counter));
		instance.run((first) -> instance.run((second) -> {
			assertThat(sessionId(first)).isNotEqualTo(sessionId(second));
			ExecutorService executor = Executors.newFixedThreadPool(2 * THREADS_PER_INSTANCE);
			try {
				List<Callable<Void>> callers = new ArrayList<>();
				for (int i = 0; i < THREADS_PER_INSTANCE; i++) {
					callers.add(incrementer(increment.apply(first)));
					callers.add(incrementer(increment.apply(second)));
				}
				for (Future<Void> caller : executor.invokeAll(callers, 120, TimeUnit.SECONDS)) {
					caller.get();
				}
			}
			finally {
				executor.shutdownNow();
			}
			assertThat(counter.value()).isEqualTo(2 * THREADS_PER_INSTANCE * INCREMENTS_PER_THREAD);
			assertThat(counter.mostInside()).isEqualTo(1);
		}));
	}

	static ApplicationContextRunner instance(ZooKeeperTestServer server, String mode, UnsafeCounter counter) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkLeaderAutoConfiguration.class, ZkLockAspectsAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.advice-mode=" + mode)
			.withBean(Counting.class, () -> new Counting(counter));
	}

	private static Callable<Void> incrementer(Runnable increment) {
		return () -> {
			for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
				increment.run();
			}
			return null;
		};
	}

	private static long sessionId(ApplicationContext context) throws Exception {
		return context.getBean(CuratorFramework.class).getZookeeperClient().getZooKeeper().getSessionId();
	}

}
