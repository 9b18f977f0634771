package dev.zklock.leader;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.LeaderTerm;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.lock.Pauses;
import dev.zklock.test.ChaosProxy;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A term that ends while the leadership is being looked at: the revocation (a suspended
 * connection) is placed between the check that this instance leads and the rest of the look,
 * through the pauses that the check consults. The term is then answered from local state: a
 * {@code SKIP} call skips and a term is invalid, without waiting for ZooKeeper, which cannot be
 * reached.
 */
@EmbeddedZooKeeper
class LeaderTermRaceTests {

	private static final String JOBS = "jobs";

	private static final Duration WAIT = Duration.ofSeconds(15);

	@Test
	void termEndingWhileLookedAtIsAnsweredFromLocalState(ZooKeeperTestServer server, TestInfo test)
			throws Throwable {
		AtomicReference<@Nullable Runnable> withinCheck = new AtomicReference<>();
		CountDownLatch revoked = new CountDownLatch(1);
		try (ChaosProxy proxy = ChaosProxy.start(server.getConnectString());
				CuratorFramework client = CuratorFrameworkFactory.builder()
					.connectString(proxy.connectString())
					.sessionTimeoutMs(10_000)
					.connectionTimeoutMs(2_000)
					.retryPolicy(new RetryOneTime(100))
					.build()) {
			client.start();
			LeaderMethods methods = new LeaderMethods(JOBS, (group) -> group);
			LeaderElections elections = new LeaderElections(client, LeaderElectionTests.basePath(test), "a",
					Duration.ofSeconds(5), (event) -> {
					}, methods, List.of(JOBS), (pauses) -> interleaved(pauses, withinCheck));
			elections.addListener(new LeadershipListener() {

				@Override
				public void granted(String group, long epoch) {
				}

				@Override
				public void revoked(String group, long epoch, String reason) {
					revoked.countDown();
				}

			});
			try {
				elections.start();
				await().atMost(WAIT).until(() -> elections.isLeader(JOBS));
				LeaderTerm term = elections.term(JOBS).orElseThrow();
				LeaderAdvice advice = methods.advice(() -> elections);
				Method run = Jobs.class.getMethod("run");
				withinCheck.set(() -> suspend(proxy, revoked));
				Object result = advice.invoke(Jobs.class, run, () -> "ran");
				assertThat(result).as("a SKIP call whose term ended within the check").isNull();
				assertThat(withinCheck.get()).as("the revocation was placed").isNull();
				proxy.heal();
				await().atMost(WAIT).until(() -> elections.isLeader(JOBS));
				assertThat(term.isValid()).as("the same session's node: the term resumed").isTrue();
				CountDownLatch revokedAgain = new CountDownLatch(1);
				elections.addListener(new LeadershipListener() {

					@Override
					public void granted(String group, long epoch) {
					}

					@Override
					public void revoked(String group, long epoch, String reason) {
						revokedAgain.countDown();
					}

				});
				withinCheck.set(() -> suspend(proxy, revokedAgain));
				assertThat(term.isValid()).as("a term that ended within its check").isFalse();
				assertThat(withinCheck.get()).as("the revocation was placed").isNull();
			}
			finally {
				proxy.heal();
				elections.destroy();
			}
		}
	}

	/**
	 * Run the placed event, once, the first time the check of the leadership consults the
	 * pauses (it has just seen this instance lead), and say that the process did not pause.
	 */
	private static Pauses interleaved(Pauses pauses, AtomicReference<@Nullable Runnable> withinCheck) {
		return (since) -> {
			Runnable event = withinCheck.getAndSet(null);
			if (event != null) {
				event.run();
				return false;
			}
			return pauses.mayHavePausedSince(since);
		};
	}

	private static void suspend(ChaosProxy proxy, CountDownLatch revoked) {
		proxy.refuse();
		try {
			assertThat(revoked.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("revoked").isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	static class Jobs {

		@ZkLeader(JOBS)
		public String run() {
			return "ran";
		}

	}

}
