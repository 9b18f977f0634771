package dev.zklock.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.zklock.ReactiveZkLockTemplate;
import dev.zklock.ZkLockTemplate;
import dev.zklock.cluster.InstanceControl;
import dev.zklock.lock.LongHoldWarnings;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.lock.aop.ZkLockedBeanPostProcessor;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.EmbeddedZooKeeperInitializer;
import dev.zklock.test.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.Ordered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EmbeddedZooKeeper
class ZkLockAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(EmbeddedZooKeeperInitializer.of(ZkLockAutoConfigurationTests.class))
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
		.withBean(Stock.class);

	private String connectString = "";

	@BeforeEach
	void connect(ZooKeeperTestServer server) {
		this.connectString = server.getConnectString();
	}

	@Test
	void defaultsGiveATemplateAndTheAdviceBeforeTransactions() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ZkLockTemplate.class)
				.hasBean("zklockLockedAdvisor")
				.hasSingleBean(ZkLockedBeanPostProcessor.class);
			assertThat(context.getBean(ZkLockTemplate.class).getDefaultWaitTime()).isEqualTo(Duration.ofSeconds(30));
			assertThat(context.getBean("zklockLockedAdvisor", DefaultPointcutAdvisor.class).getOrder())
				.isEqualTo(Ordered.LOWEST_PRECEDENCE - 100);
			assertThat(AopUtils.isAopProxy(context.getBean(Stock.class))).isTrue();
		});
	}

	@Test
	void theInstanceIsNamedByTheParticipantIdAndWatchesItsControlNode() {
		this.contextRunner.withPropertyValues("zklock.leader.participant-id=inventory@host-9:99").run((context) -> {
			assertThat(context.getBean(ZkLockTemplate.class).getParticipantId()).isEqualTo("inventory@host-9:99");
			assertThat(context).hasSingleBean(InstanceControl.class).doesNotHaveBean(LongHoldWarnings.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> client.checkExists()
					.forPath("/zklock/locks/#instances/inventory@host-9:99/session-"
							+ Long.toHexString(template.sessionId())) != null);
		});
		this.contextRunner.withPropertyValues("spring.application.name=inventory")
			.run((context) -> assertThat(context.getBean(ZkLockTemplate.class).getParticipantId())
				.startsWith("inventory@"));
	}

	@Test
	void longHoldsAreWatchedOnlyWhenAskedFor() {
		this.contextRunner.withPropertyValues("zklock.lock.long-hold-warning=10s")
			.run((context) -> assertThat(context).hasSingleBean(LongHoldWarnings.class));
		this.contextRunner.withPropertyValues("zklock.lock.long-hold-warning=0s")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void waitTimeAndOrderPropertiesAreUsed() {
		this.contextRunner.withPropertyValues("zklock.lock.wait-time=5s", "zklock.lock.order=42").run((context) -> {
			assertThat(context.getBean(ZkLockTemplate.class).getDefaultWaitTime()).isEqualTo(Duration.ofSeconds(5));
			assertThat(context.getBean("zklockLockedAdvisor", DefaultPointcutAdvisor.class).getOrder()).isEqualTo(42);
		});
	}

	@Test
	void asyncWorkRunsOnTheApplicationTaskExecutorOrTheNamedOne() {
		this.contextRunner
			.withBean("applicationTaskExecutor", Executor.class, () -> namedThreads("app-task"))
			.withBean("lockWork", Executor.class, () -> namedThreads("lock-work"))
			.run((context) -> assertThat(asyncThread(context)).isEqualTo("app-task"));
		this.contextRunner.withPropertyValues("zklock.lock.async-executor=lockWork")
			.withBean("applicationTaskExecutor", Executor.class, () -> namedThreads("app-task"))
			.withBean("lockWork", Executor.class, () -> namedThreads("lock-work"))
			.run((context) -> assertThat(asyncThread(context)).isEqualTo("lock-work"));
		this.contextRunner.run((context) -> assertThat(asyncThread(context)).startsWith("zklock-async-"));
	}

	@Test
	void anAsyncExecutorNameWithoutABeanFailsTheStartup() {
		this.contextRunner.withPropertyValues("zklock.lock.async-executor=missing").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("'zklock.lock.async-executor' names 'missing', but there is no Executor bean");
		});
	}

	@Test
	void aReactiveTemplateComesWithReactor() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(ReactiveZkLockTemplate.class));
		new ApplicationContextRunner().withInitializer(EmbeddedZooKeeperInitializer.of(ZkLockAutoConfigurationTests.class))
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("reactor.core"))
			.run((context) -> assertThat(context).hasSingleBean(ZkLockTemplate.class)
				.doesNotHaveBean(ReactiveZkLockTemplate.class));
	}

	private static String asyncThread(org.springframework.context.ApplicationContext context) throws Exception {
		return context.getBean(ZkLockTemplate.class)
			.executeAsync("executor", (lock) -> CompletableFuture.completedFuture(Thread.currentThread().getName()))
			.get(20, TimeUnit.SECONDS);
	}

	private static ExecutorService namedThreads(String name) {
		return Executors.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(task, name);
			thread.setDaemon(true);
			return thread;
		});
	}

	@Test
	void basePathIsUsed() {
		this.contextRunner.withPropertyValues("zklock.lock.base-path=/apps/orders/locks").run((context) -> {
			try (CuratorFramework observer = newClient()) {
				List<String> seen = context.getBean(Stock.class).reserve(observer, "/apps/orders/locks/sku-1");
				assertThat(seen).hasSize(1);
				assertThat(observer.checkExists().forPath("/zklock/locks/sku-1")).isNull();
			}
		});
	}

	@Test
	void userTemplateIsUsedByTheAdvice() {
		try (CuratorFramework own = newClient(); CuratorFramework observer = newClient()) {
			this.contextRunner
				.withBean("myTemplate", ZkLockTemplate.class,
						() -> new ZkLockTemplate(own, "/mine", Duration.ofSeconds(1), false))
				.run((context) -> {
					assertThat(context).hasSingleBean(ZkLockTemplate.class);
					assertThat(context.getBean(ZkLockTemplate.class)).isSameAs(context.getBean("myTemplate"));
					assertThat(context.getBean(Stock.class).reserve(observer, "/mine/sku-1")).hasSize(1);
				});
		}
	}

	@Test
	void backsOffWithoutACuratorClient() {
		this.contextRunner.withPropertyValues("zklock.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(CuratorFramework.class)
				.doesNotHaveBean(ZkLockTemplate.class)
				.doesNotHaveBean("zklockLockedAdvisor")
				.doesNotHaveBean(ZkLockedBeanPostProcessor.class);
			assertThat(AopUtils.isAopProxy(context.getBean(Stock.class))).isFalse();
		});
	}

	@Test
	void backsOffWithoutCuratorOnTheClasspath() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(CuratorFramework.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ZkLockTemplate.class)
				.doesNotHaveBean("zklockLockedAdvisor"));
	}

	@Test
	void invalidAnnotationIsExplainedAtStartup() {
		this.contextRunner.withBean("badStock", BadStock.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InvalidAnnotationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).startsWith("Invalid @ZkLocked on BadStock.reserve(String) of bean "
					+ "'badStock': the key expression '#item' refers to #item, which the method does not have");
			assertThat(analysis.getAction()).contains("in bean 'badStock'").contains("the method's parameters are #sku");
			assertThat(analysis.getDescription()).as("the fix, said in the action only")
				.doesNotContain("the method's parameters are");
		});
	}

	@Test
	void aspectjModeWithoutTheAspectsModuleFailsAtStartup() {
		this.contextRunner.withPropertyValues("zklock.advice-mode=aspectj").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().isInstanceOf(MissingAspectsException.class);
			FailureAnalysis analysis = new MissingAspectsFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription())
				.startsWith("zklock.advice-mode is aspectj, but the zklock-aspects module is not on the class path");
			assertThat(analysis.getAction()).contains("dev.zklock:zklock-aspects").contains("'zklock.advice-mode=proxy'");
		});
	}

	private CuratorFramework newClient() {
		CuratorFramework client = CuratorFrameworkFactory.newClient(this.connectString, new RetryOneTime(100));
		client.start();
		return client;
	}

	static class BadStock {

		@ZkLocked("#item")
		public void reserve(String sku) {
		}

	}

	static class Stock {

		/**
		 * Return the lock nodes the observer sees under the path while the lock is held.
		 */
		@ZkLocked("#p1.substring(#p1.lastIndexOf('/') + 1)")
		public List<String> reserve(CuratorFramework observer, String lockPath) throws Exception {
			return observer.getChildren().forPath(lockPath);
		}

	}

}
