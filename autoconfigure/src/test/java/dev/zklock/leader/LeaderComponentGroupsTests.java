package dev.zklock.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.zklock.annotation.ZkLeaderComponent;
import dev.zklock.leader.ComponentLeaderApplication.Feed;
import dev.zklock.leader.ComponentLeaderApplication.Interval;
import dev.zklock.leader.ComponentLeaderApplication.Intervals;
import dev.zklock.test.ChaosProxy;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The leader-only components of several groups on one instance: each group's are started and
 * stopped apart from the others', so that a slow stop of one group does not hold up another's.
 */
@EmbeddedZooKeeper
class LeaderComponentGroupsTests {

	private static final String FEED = ComponentLeaderApplication.GROUP;

	private static final String REPORTS = "reports";

	private static final Duration WAIT = Duration.ofSeconds(15);

	private static final long SESSION_TIMEOUT_MILLIS = 2000;

	@BeforeEach
	void clearIntervals() {
		Intervals.clear();
	}

	@Test
	void slowStopOfOneGroupDoesNotDelayAnotherGroupsStopOnSuspension(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (ChaosProxy proxy = ChaosProxy.start(server.getConnectString());
				Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.startVia(proxy.connectString(), "a", TwoGroupsApplication.class,
					"zklock.session-timeout=" + SESSION_TIMEOUT_MILLIS + "ms");
			Feed feed = a.bean(Feed.class);
			SlowStop reports = a.bean(SlowStop.class);
			await().atMost(WAIT).until(() -> feed.isRunning() && reports.isRunning());
			CompletableFuture<Boolean> yielded = new CompletableFuture<>();
			Thread yielding = new Thread(() -> yielded.complete(a.leadership().yieldLeadership(REPORTS)),
					"yield-reports");
			yielding.start();
			try {
				assertThat(reports.awaitStopping(WAIT)).as("the stop of reports began").isTrue();
				long cut = System.nanoTime();
				proxy.refuse(); // Suspended: both groups are revoked while the stop of reports goes on.
				await().atMost(WAIT).until(() -> !feed.isRunning());
				assertThat(reports.isStopping()).as("reports still stopping when the feed had stopped").isTrue();
				List<Interval> ofA = Intervals.of("a");
				assertThat(ofA).singleElement().matches((interval) -> !interval.isOpen());
				assertThat(TimeUnit.NANOSECONDS.toMillis(ofA.get(0).end() - cut))
					.as("ms from the cut to the stop of the feed, before the session can expire")
					.isLessThan(SESSION_TIMEOUT_MILLIS);
			}
			finally {
				reports.release();
				yielding.join(WAIT.toMillis());
			}
			assertThat(yielded).as("the yield returned once reports had stopped").isDone();
			assertThat(reports.isRunning()).isFalse();
			proxy.heal();
			await().atMost(WAIT).until(() -> feed.isRunning() && reports.isRunning());
		}
	}

	/**
	 * A group granted while the elections stop, after its components were stopped and before the
	 * elections are left, does not start them: the node is deleted moments later, and the next
	 * leader would start its own beside them.
	 */
	@Test
	void groupGrantedWhileTheElectionsStopDoesNotStartItsComponents(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", TwoGroupsApplication.class);
			a.bean(SlowStop.class).release(); // Only b's stop is held.
			await().atMost(WAIT).until(() -> a.isLeader(FEED) && a.isLeader(REPORTS));
			Instance b = instances.start("b", TwoGroupsApplication.class);
			SlowStop reportsOfB = b.bean(SlowStop.class);
			assertThat(a.leadership().yieldLeadership(REPORTS)).isTrue();
			await().atMost(WAIT).until(reportsOfB::isRunning);
			Thread stopping = new Thread(((LeaderElections) b.leadership())::stop, "stop-b");
			stopping.start();
			try {
				// The elections of b stop: the stop of its reports holds them after the components' stop.
				assertThat(reportsOfB.awaitStopping(WAIT)).as("the stop of b's reports began").isTrue();
				assertThat(a.leadership().yieldLeadership(FEED)).isTrue();
				await().atMost(WAIT).until(() -> b.isLeader(FEED));
				await().during(Duration.ofSeconds(1))
					.atMost(Duration.ofSeconds(3))
					.until(() -> Intervals.of("b").isEmpty());
			}
			finally {
				reportsOfB.release();
				stopping.join(WAIT.toMillis());
			}
			await().atMost(WAIT).until(() -> a.isLeader(FEED) && a.bean(Feed.class).isRunning());
			assertThat(Intervals.of("b")).as("the feed's runs on b, whose elections were stopping").isEmpty();
			assertThat(Intervals.overlaps()).isEmpty();
		}
	}

	/**
	 * The feed, and a component of group "reports" whose stop waits until the test releases it.
	 */
	@Configuration(proxyBeanMethods = false)
	@Import(ComponentLeaderApplication.class)
	static class TwoGroupsApplication {

		@Bean
		@ZkLeaderComponent(REPORTS)
		SlowStop reports() {
			return new SlowStop();
		}

	}

	/**
	 * A component whose stop, as that of a listener container with a long shutdown timeout,
	 * lasts until it is released (for 30 seconds at most).
	 */
	static class SlowStop implements SmartLifecycle {

		private final CountDownLatch stopping = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		private volatile boolean running;

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			if (!this.running) {
				return;
			}
			this.stopping.countDown();
			try {
				this.released.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		boolean awaitStopping(Duration timeout) throws InterruptedException {
			return this.stopping.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}

		boolean isStopping() {
			return this.stopping.getCount() == 0 && this.released.getCount() > 0;
		}

		void release() {
			this.released.countDown();
		}

	}

}
