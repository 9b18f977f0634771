package dev.zklock.leader;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.LeaderTerm;
import dev.zklock.LeadershipLostException;
import dev.zklock.NotLeaderException;
import dev.zklock.ZkLeaderContext;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.test.ChaosProxy;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Leader-only code and its term: the handle it gets, a revocation that reaches a running call,
 * and waiting to lead.
 */
@EmbeddedZooKeeper
class LeaderTermTests {

	private static final String JOBS = "jobs";

	private static final Duration WAIT = Duration.ofSeconds(15);

	@Test
	void callThatOutlivesItsTermEndsWithTheExceptionAtReturn(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", LongJobs.class);
			Instance b = instances.start("b", LongJobs.class);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			long epoch = a.leadership().epoch(JOBS).orElseThrow();
			LongJobs.Job job = a.bean(LongJobs.Job.class);
			CompletableFuture<Long> run = CompletableFuture.supplyAsync(job::uninterruptible);
			assertThat(job.started().await(10, TimeUnit.SECONDS)).isTrue();
			LeaderTerm term = job.term().get();
			assertThat(term.group()).isEqualTo(JOBS);
			assertThat(term.epoch()).isEqualTo(epoch);
			assertThat(term.isValid()).isTrue();
			assertThat(a.leadership().yieldLeadership(JOBS)).isTrue();
			assertThat(term.isValid()).isFalse();
			assertThatExceptionOfType(LeadershipLostException.class).isThrownBy(term::ensureValid);
			await().atMost(WAIT).until(() -> b.isLeader(JOBS));
			job.release().countDown();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> run.get(10, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(LeadershipLostException.class)
				.satisfies((ex) -> assertThat(((LeadershipLostException) ex).getEpoch()).isEqualTo(epoch));
			assertThat(b.leadership().epoch(JOBS).orElseThrow()).isGreaterThan(epoch);
			assertThatIllegalStateException().isThrownBy(ZkLeaderContext::current);
		}
	}

	@Test
	void revocationBySuspensionInterruptsACallThatAsksForIt(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (ChaosProxy proxy = ChaosProxy.start(server.getConnectString());
				Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.startVia(proxy.connectString(), "a", LongJobs.class);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			Instance b = instances.start("b", LongJobs.class);
			LongJobs.Job job = a.bean(LongJobs.Job.class);
			AtomicBoolean interruptedAfterwards = new AtomicBoolean(true);
			CompletableFuture<Void> run = CompletableFuture.runAsync(() -> {
				try {
					job.interruptible();
				}
				catch (InterruptedException ex) {
					throw new IllegalStateException("not wrapped", ex);
				}
				finally {
					interruptedAfterwards.set(Thread.currentThread().isInterrupted());
				}
			});
			assertThat(job.started().await(10, TimeUnit.SECONDS)).isTrue();
			proxy.blackhole();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> run.get(10, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(LeadershipLostException.class)
				.withCauseInstanceOf(InterruptedException.class);
			assertThat(interruptedAfterwards.get()).as("the interrupt is not left on the thread").isFalse();
			await().atMost(WAIT).until(() -> b.isLeader(JOBS));
			proxy.heal();
		}
	}

	@Test
	void awaitLeadershipReturnsTheTermOnceThisInstanceLeads(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", LongJobs.class);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			Instance b = instances.start("b", LongJobs.class);
			long epochOfA = a.leadership().epoch(JOBS).orElseThrow();
			assertThat(b.leadership().awaitLeadership(JOBS, Duration.ofMillis(300))).isEmpty();
			CompletableFuture<Optional<LeaderTerm>> waiting = CompletableFuture.supplyAsync(() -> {
				try {
					return b.leadership().awaitLeadership(JOBS, WAIT);
				}
				catch (InterruptedException ex) {
					throw new IllegalStateException(ex);
				}
			});
			assertThatExceptionOfType(NotLeaderException.class).isThrownBy(b.bean(LongJobs.Job.class)::uninterruptible)
				.isNotInstanceOf(LeadershipLostException.class);
			a.close();
			Optional<LeaderTerm> term = waiting.get(20, TimeUnit.SECONDS);
			assertThat(term).hasValueSatisfying((t) -> {
				assertThat(t.epoch()).isGreaterThan(epochOfA);
				assertThat(t.isValid()).isTrue();
			});
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class LongJobs {

		@Bean
		Job job() {
			return new Job();
		}

		static class Job {

			final CountDownLatch started = new CountDownLatch(1);

			final CountDownLatch release = new CountDownLatch(1);

			final AtomicReference<LeaderTerm> term = new AtomicReference<>();

			CountDownLatch started() {
				return this.started;
			}

			CountDownLatch release() {
				return this.release;
			}

			AtomicReference<LeaderTerm> term() {
				return this.term;
			}

			@ZkLeader(group = JOBS, whenNotLeader = WhenNotLeader.THROW)
			public long uninterruptible() {
				this.term.set(ZkLeaderContext.current());
				this.started.countDown();
				boolean done = false;
				while (!done) {
					try {
						done = this.release.await(30, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						// Keep waiting: this job does not give up.
					}
				}
				return ZkLeaderContext.current().epoch();
			}

			@ZkLeader(group = JOBS, whenNotLeader = WhenNotLeader.THROW, interruptOnRevoke = true)
			public void interruptible() throws InterruptedException {
				this.started.countDown();
				this.release.await(30, TimeUnit.SECONDS);
			}

		}

	}

}
