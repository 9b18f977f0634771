package dev.zklock.leader;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.LeaderTerm;
import dev.zklock.NotLeaderException;
import dev.zklock.ZkLeaderContext;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import io.micrometer.context.ContextSnapshotFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leader-only methods that return a {@code CompletableFuture}, a {@code Mono} or a {@code Flux},
 * on an instance that does not lead (another participant, a plain ZooKeeper client, holds the
 * group), and then does. A non-leader's call gives an empty result or an error signal, never a
 * thrown exception or a {@code null} in place of the publisher.
 */
@EmbeddedZooKeeper
class ZkLeaderAsyncTests {

	private static final String BUSY = "busy";

	private CuratorFramework otherParticipant;

	private String otherNode;

	private Instances instances;

	private Instance instance;

	private AsyncLeaderService service;

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
		this.instance = this.instances.start("svc", ServiceConfiguration.class);
		this.service = this.instance.bean(AsyncLeaderService.class);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.instance.leadership().participants(BUSY)).hasSize(2));
	}

	@AfterEach
	void stop() {
		this.instances.close();
		this.otherParticipant.close();
	}

	@Test
	void aNonLeadersCallsGiveEmptyResultsOrErrorSignals() throws Exception {
		assertThat(this.service.skipFuture().get(10, TimeUnit.SECONDS)).isNull();
		assertThat(this.service.throwFuture()).failsWithin(Duration.ofSeconds(10))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(NotLeaderException.class);
		StepVerifier.create(this.service.skipMono()).verifyComplete();
		StepVerifier.create(this.service.skipFlux()).verifyComplete();
		StepVerifier.create(this.service.throwMono()).expectError(NotLeaderException.class).verify();
		StepVerifier.create(this.service.throwFlux()).expectError(NotLeaderException.class).verify();
		assertThat(this.service.calls()).isEqualTo(0);
	}

	@Test
	void leadershipIsCheckedOnSubscriptionNotWhenTheMonoIsMade() throws Exception {
		Mono<String> madeBeforeLeading = this.service.skipMono();
		this.otherParticipant.delete().forPath(this.otherNode);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.instance.isLeader(BUSY));
		StepVerifier.create(madeBeforeLeading).expectNext("ran").verifyComplete();
		assertThat(this.service.calls()).isEqualTo(1);
	}

	@Test
	void callsRunOnceThisInstanceLeads() throws Exception {
		this.otherParticipant.delete().forPath(this.otherNode);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.instance.isLeader(BUSY));
		assertThat(this.service.skipFuture().get(10, TimeUnit.SECONDS)).isEqualTo("ran");
		assertThat(this.service.throwFuture().get(10, TimeUnit.SECONDS)).isEqualTo("ran");
		StepVerifier.create(this.service.skipMono()).expectNext("ran").verifyComplete();
		StepVerifier.create(this.service.throwFlux()).expectNext("ran", "ran").verifyComplete();
		assertThat(this.service.calls()).isEqualTo(4);
	}

	@Test
	void theTermIsInZkLeaderContextInTheBodyAndInPropagatedStagesUntilTheCallEnds() throws Exception {
		this.otherParticipant.delete().forPath(this.otherNode);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.instance.isLeader(BUSY));
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			List<LeaderTerm> seen = this.service.termInFuture(pool).get(10, TimeUnit.SECONDS);
			assertThat(seen.get(0).group()).isEqualTo(BUSY);
			assertThat(seen.get(1)).as("a stage on an executor wrapped with a snapshot").isSameAs(seen.get(0));
			Executor captured = this.service.captured();
			assertThat(CompletableFuture.supplyAsync(() -> ZkLeaderContext.find(BUSY), captured).get(10, TimeUnit.SECONDS))
				.as("a stage that runs after the call ended")
				.isEmpty();
			LeaderTerm inMono = this.service.termInMono().block(Duration.ofSeconds(10));
			assertThat(inMono.epoch()).isEqualTo(seen.get(0).epoch());
			assertThat(ZkLeaderContext.find(BUSY)).isEmpty();
		}
		finally {
			pool.shutdownNow();
			assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	static class AsyncLeaderService {

		private final AtomicInteger calls = new AtomicInteger();

		private volatile Executor captured;

		public Executor captured() {
			return this.captured;
		}

		@ZkLeader(BUSY)
		public CompletableFuture<List<LeaderTerm>> termInFuture(ExecutorService pool) {
			LeaderTerm body = ZkLeaderContext.current();
			this.captured = ContextSnapshotFactory.builder().build().captureAll().wrapExecutor(pool);
			return CompletableFuture.supplyAsync(() -> List.of(body, ZkLeaderContext.current()), this.captured);
		}

		@ZkLeader(BUSY)
		public Mono<LeaderTerm> termInMono() {
			return Mono.just(ZkLeaderContext.current());
		}

		public int calls() {
			return this.calls.get();
		}

		@ZkLeader(BUSY)
		public CompletableFuture<String> skipFuture() {
			this.calls.incrementAndGet();
			return CompletableFuture.completedFuture("ran");
		}

		@ZkLeader(group = BUSY, whenNotLeader = WhenNotLeader.THROW)
		public CompletableFuture<String> throwFuture() {
			this.calls.incrementAndGet();
			return CompletableFuture.completedFuture("ran");
		}

		@ZkLeader(BUSY)
		public Mono<String> skipMono() {
			return Mono.fromCallable(() -> {
				this.calls.incrementAndGet();
				return "ran";
			});
		}

		@ZkLeader(BUSY)
		public Flux<String> skipFlux() {
			this.calls.incrementAndGet();
			return Flux.just("ran");
		}

		@ZkLeader(group = BUSY, whenNotLeader = WhenNotLeader.THROW)
		public Mono<String> throwMono() {
			this.calls.incrementAndGet();
			return Mono.just("ran");
		}

		@ZkLeader(group = BUSY, whenNotLeader = WhenNotLeader.THROW)
		public Flux<String> throwFlux() {
			this.calls.incrementAndGet();
			return Flux.just("ran", "ran");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ServiceConfiguration {

		@Bean
		AsyncLeaderService asyncLeaderService() {
			return new AsyncLeaderService();
		}

	}

}
