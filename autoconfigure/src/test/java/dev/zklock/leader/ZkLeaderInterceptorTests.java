package dev.zklock.leader;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.NotLeaderException;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Calls to leader-only methods on an instance that does not lead, and then does. Another
 * participant, a plain ZooKeeper client, holds the group "busy" until the test lets it go.
 */
@EmbeddedZooKeeper
class ZkLeaderInterceptorTests {

	private static final String BUSY = "busy";

	private CuratorFramework otherParticipant;

	private String otherNode;

	private Instances instances;

	private Instance instance;

	private Calls calls;

	@BeforeEach
	void start(ZooKeeperTestServer server, TestInfo test) throws Exception {
		this.otherParticipant = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
		this.otherParticipant.start();
		this.otherNode = this.otherParticipant.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath(LeaderElectionTests.basePath(test) + "/" + BUSY + "/n-",
					"someone-else".getBytes(StandardCharsets.UTF_8));
		this.instances = LeaderElectionTests.instances(server, test);
		this.instance = this.instances.start("svc", ServiceConfiguration.class, "test.group=" + BUSY);
		this.calls = this.instance.bean(Calls.class);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.instance.leadership().participants(BUSY)).hasSize(2));
	}

	@AfterEach
	void stop() {
		this.instances.close();
		this.otherParticipant.close();
	}

	@Test
	void skippedCallsReturnNothing() {
		LeaderOnlyService service = this.instance.bean(LeaderOnlyService.class);
		service.skipVoid();
		assertThat(service.skipOptional()).isEmpty();
		assertThat(service.skipString()).isNull();
		assertThat(service.placeholderGroup()).isNull();
		assertThat(this.calls.count).hasValue(0);
	}

	@Test
	void throwingCallsSayWhy() {
		LeaderOnlyService service = this.instance.bean(LeaderOnlyService.class);
		assertThatExceptionOfType(NotLeaderException.class).isThrownBy(service::throwing)
			.withMessage("This instance is not the leader of group 'busy': another participant leads")
			.satisfies((ex) -> assertThat(ex.getGroup()).isEqualTo(BUSY));
		assertThatExceptionOfType(NotLeaderException.class).isThrownBy(service::metaAnnotated);
		assertThat(this.calls.count).hasValue(0);
		assertThat(this.instance.leadership().currentLeader(BUSY)).contains("someone-else");
	}

	@Test
	void methodAnnotationWinsOverClassAnnotation() {
		ClassLevelService service = this.instance.bean(ClassLevelService.class);
		assertThatExceptionOfType(NotLeaderException.class).isThrownBy(service::coveredByClass);
		assertThat(service.skippedByMethod()).isNull();
		assertThat(service.otherGroupByMethod()).isEqualTo("ran");
		assertThat(service.notPublic()).isEqualTo("ran");
		assertThat(this.calls.count).hasValue(2);
	}

	@Test
	void unannotatedAndDefaultGroupMethodsRun() {
		LeaderOnlyService service = this.instance.bean(LeaderOnlyService.class);
		assertThat(service.unannotated()).isEqualTo("ran");
		assertThat(service.defaultGroup()).isEqualTo("ran");
		assertThat(this.instance.leadership().groups()).containsExactlyInAnyOrder(BUSY, "svc", "free");
	}

	@Test
	void callsRunOnceThisInstanceLeads() throws Exception {
		this.otherParticipant.delete().forPath(this.otherNode);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.instance.isLeader(BUSY));
		LeaderOnlyService service = this.instance.bean(LeaderOnlyService.class);
		service.skipVoid();
		assertThat(service.skipOptional()).contains("ran");
		assertThat(service.throwing()).isEqualTo("ran");
		assertThat(service.metaAnnotated()).isEqualTo("ran");
		assertThat(this.instance.bean(ClassLevelService.class).coveredByClass()).isEqualTo("ran");
		assertThat(this.calls.count).hasValue(5);
	}

	@Test
	void leaderCheckComesBeforeTheTransaction() {
		LeaderOnlyService service = this.instance.bean(LeaderOnlyService.class);
		service.transactional();
		assertThat(this.instance.bean(CountingTransactionManager.class).begun).hasValue(0);
		service.transactionalOnFreeGroup();
		assertThat(this.instance.bean(CountingTransactionManager.class).begun).hasValue(1);
	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@ZkLeader(group = BUSY, whenNotLeader = WhenNotLeader.THROW)
	@interface BusyLeaderOnly {

	}

	static class Calls {

		final AtomicInteger count = new AtomicInteger();

		String ran() {
			this.count.incrementAndGet();
			return "ran";
		}

	}

	static class LeaderOnlyService {

		private final Calls calls;

		LeaderOnlyService(Calls calls) {
			this.calls = calls;
		}

		@ZkLeader(BUSY)
		public void skipVoid() {
			this.calls.ran();
		}

		@ZkLeader(group = BUSY)
		public Optional<String> skipOptional() {
			return Optional.of(this.calls.ran());
		}

		@ZkLeader(BUSY)
		public String skipString() {
			return this.calls.ran();
		}

		@ZkLeader("${test.group}")
		public String placeholderGroup() {
			return this.calls.ran();
		}

		@ZkLeader(group = BUSY, whenNotLeader = WhenNotLeader.THROW)
		public String throwing() {
			return this.calls.ran();
		}

		@BusyLeaderOnly
		public String metaAnnotated() {
			return this.calls.ran();
		}

		@ZkLeader
		public String defaultGroup() {
			return this.calls.ran();
		}

		@ZkLeader(BUSY)
		@Transactional
		public void transactional() {
			this.calls.ran();
		}

		@ZkLeader("free")
		@Transactional
		public void transactionalOnFreeGroup() {
			this.calls.ran();
		}

		public String unannotated() {
			return this.calls.ran();
		}

	}

	@ZkLeader(group = BUSY, whenNotLeader = WhenNotLeader.THROW)
	static class ClassLevelService {

		private final Calls calls;

		ClassLevelService(Calls calls) {
			this.calls = calls;
		}

		public String coveredByClass() {
			return this.calls.ran();
		}

		@ZkLeader(BUSY)
		public String skippedByMethod() {
			return this.calls.ran();
		}

		@ZkLeader("free")
		public String otherGroupByMethod() {
			return this.calls.ran();
		}

		String notPublic() {
			return this.calls.ran();
		}

	}

	static class CountingTransactionManager extends AbstractPlatformTransactionManager {

		final AtomicInteger begun = new AtomicInteger();

		@Override
		protected Object doGetTransaction() {
			return new Object();
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
			this.begun.incrementAndGet();
		}

		@Override
		protected void doCommit(DefaultTransactionStatus status) {
		}

		@Override
		protected void doRollback(DefaultTransactionStatus status) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class ServiceConfiguration {

		@Bean
		Calls calls() {
			return new Calls();
		}

		@Bean
		LeaderOnlyService leaderOnlyService(Calls calls) {
			return new LeaderOnlyService(calls);
		}

		@Bean
		ClassLevelService classLevelService(Calls calls) {
			return new ClassLevelService(calls);
		}

		@Bean
		CountingTransactionManager transactionManager() {
			return new CountingTransactionManager();
		}

	}

}
