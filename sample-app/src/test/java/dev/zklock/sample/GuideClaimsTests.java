package dev.zklock.sample;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockMode;
import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockContext;
import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.autoconfigure.ZooKeeperAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What docs/guide.md says about advice order and self-invocation, checked.
 */
@EmbeddedZooKeeper
class GuideClaimsTests {

	private ApplicationContextRunner runner = new ApplicationContextRunner();

	@BeforeEach
	void connect(ZooKeeperTestServer server) {
		this.runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkLeaderAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(),
					"spring.application.name=guide")
			.withUserConfiguration(JobsConfiguration.class);
	}

	@Test
	void withAsyncTheLockIsTakenOnTheExecutorsThread() {
		this.runner.run((context) -> {
			CompletableFuture<String> seen = new CompletableFuture<>();
			context.getBean(Jobs.class).asyncLocked(Thread.currentThread().getName(), seen);
			assertThat(seen.get(30, TimeUnit.SECONDS)).isEqualTo("locked on another thread");
		});
	}

	@Test
	void aCallFromInsideTheSameBeanIsNotLockedButACallThroughTheProxyIs() {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.callsLockedItself()).isEqualTo("not locked");
			assertThat(jobs.callsLockedThroughTheProxy()).isEqualTo("locked");
			assertThat(jobs.locked()).isEqualTo("locked");
		});
	}

	@Test
	void onAnInstanceThatDoesNotLeadALeaderOnlyLockedCallTakesNoLock() {
		this.runner.run((leader) -> this.runner.run((follower) -> {
			await().atMost(Duration.ofSeconds(20)).until(() -> leader.getBean(ZkLeadership.class).isLeader("guide"));
			assertThat(follower.getBean(ZkLeadership.class).isLeader("guide")).isFalse();
			ZkLockTemplate leaderLocks = leader.getBean(ZkLockTemplate.class);
			try (LockHolder busy = LockHolder.hold(leaderLocks, "nightly", LockMode.EXCLUSIVE)) {
				// The method waits forever for its lock: only a leader check made first lets the call return.
				CompletableFuture<String> call = CompletableFuture
					.supplyAsync(() -> follower.getBean(Jobs.class).leaderOnlyLocked());
				assertThat(call.get(20, TimeUnit.SECONDS)).isNull();
			}
		}));
	}

	@Test
	void aCollectionKeyLocksEveryElement() {
		this.runner.run((context) -> assertThat(context.getBean(Jobs.class).transfer(List.of("b", "a", "b")))
			.isEqualTo("stock:a, stock:b held, current stock:b"));
	}

	@Test
	void whenDisabledTheAnnotationsHaveNoEffect() {
		this.runner.withPropertyValues("zklock.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ZkLockTemplate.class).doesNotHaveBean(ZkLeadership.class);
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.locked()).isEqualTo("not locked");
			assertThat(jobs.leaderOnlyLocked()).isEqualTo("ran");
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class JobsConfiguration {

		@Bean
		Jobs jobs(ObjectProvider<Jobs> self) {
			return new Jobs(self);
		}

	}

	static class Jobs {

		private final ObjectProvider<Jobs> self;

		Jobs(ObjectProvider<Jobs> self) {
			this.self = self;
		}

		@Async
		@ZkLocked("'async'")
		public void asyncLocked(String callerThread, CompletableFuture<String> seen) {
			String thread = Thread.currentThread().getName();
			boolean locked = ZkLockContext.find("async").isPresent();
			seen.complete((locked && !thread.equals(callerThread)) ? "locked on another thread"
					: "locked " + locked + " on thread " + thread);
		}

		@ZkLocked("'self'")
		public String locked() {
			return ZkLockContext.find("self").isPresent() ? "locked" : "not locked";
		}

		public String callsLockedItself() {
			return locked();
		}

		public String callsLockedThroughTheProxy() {
			return this.self.getObject().locked();
		}

		@ZkLocked(key = "#skus.![ 'stock:' + #this ]")
		public String transfer(List<String> skus) {
			String held = String.join(", ", skus.stream()
				.sorted()
				.distinct()
				.map((sku) -> "stock:" + sku)
				.filter((key) -> ZkLockContext.find(key).isPresent())
				.toList());
			return held + " held, current " + ZkLockContext.current().key();
		}

		@ZkLeader("guide")
		@ZkLocked(key = "'nightly'", waitTime = "-1")
		public String leaderOnlyLocked() {
			return "ran";
		}

	}

}
