package dev.zklock.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.zklock.actuate.ZkLockEndpoint;
import dev.zklock.leader.ComponentLeaderApplication.Feed;
import dev.zklock.leader.ComponentLeaderApplication.Interval;
import dev.zklock.leader.ComponentLeaderApplication.Intervals;
import dev.zklock.test.ChaosProxy;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leader-only components ({@code @ZkLeaderComponent}) among several application instances with
 * their own sessions: the component runs on exactly one instance at a time, the leader's, and
 * stops before another instance can start it.
 */
@EmbeddedZooKeeper
class LeaderComponentTests {

	private static final String FEED = ComponentLeaderApplication.GROUP;

	private static final Duration WAIT = Duration.ofSeconds(15);

	@BeforeEach
	void clearIntervals() {
		Intervals.clear();
	}

	@Test
	void componentRunsOnTheLeaderOnlyAndMovesOnYieldAndClose(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", ComponentLeaderApplication.class);
			await().atMost(WAIT).until(() -> running(a));
			assertThat(a.bean(Feed.class).isAutoStartup()).as("kept from starting with the context").isFalse();
			Instance b = instances.start("b", ComponentLeaderApplication.class);
			Instance c = instances.start("c", ComponentLeaderApplication.class);
			await().atMost(WAIT).until(() -> b.leadership().participants(FEED).size() == 3);
			assertThat(running(b) || running(c)).isFalse();
			ZkLockEndpoint endpoint = new ZkLockEndpoint(a.client(), null, a.leadership(),
					a.bean(LeaderComponents.class));
			assertThat(endpoint.group(FEED).components()).singleElement().satisfies((info) -> {
				assertThat(info.beanName()).isEqualTo("feed");
				assertThat(info.running()).isTrue();
				assertThat(info.failure()).isNull();
			});
			assertThat(endpoint.yieldLeadership(FEED).yielded()).isTrue();
			assertThat(running(a)).as("stopped before the yield returns").isFalse();
			assertThat(endpoint.group(FEED).components()).singleElement()
				.satisfies((info) -> assertThat(info.running()).isFalse());
			await().atMost(WAIT).until(() -> running(b));
			b.close();
			await().atMost(WAIT).until(() -> running(c));
			assertThat(Intervals.of("b")).singleElement().matches((interval) -> !interval.isOpen());
			assertThat(Stream.of(a, c).filter(LeaderComponentTests::running)).containsExactly(c);
			assertThat(Intervals.overlaps()).isEmpty();
			c.close();
			assertThat(Intervals.of("c")).as("stopped before the context of c closed").noneMatch(Interval::isOpen);
			await().atMost(WAIT).until(() -> running(a));
			assertThat(Intervals.overlaps()).isEmpty();
		}
		assertThat(Intervals.all()).as("stopped before the contexts closed").noneMatch(Interval::isOpen);
	}

	@Test
	void contextStoppedAndStartedAgainRunsTheComponentOnlyWhileItLeads(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", ComponentLeaderApplication.class);
			await().atMost(WAIT).until(() -> running(a));
			Instance b = instances.start("b", ComponentLeaderApplication.class);
			await().atMost(WAIT).until(() -> b.leadership().participants(FEED).size() == 2);
			b.context().stop();
			b.context().start();
			assertThat(running(b)).as("follower's component after its context was started again").isFalse();
			await().atMost(WAIT).until(() -> b.leadership().participants(FEED).size() == 2);
			assertThat(running(b)).isFalse();
			a.context().stop(); // A stopped context leaves the election: b takes over.
			assertThat(running(a)).as("stopped with the context").isFalse();
			await().atMost(WAIT).until(() -> running(b));
			a.context().start();
			assertThat(running(a)).as("former leader's component after its context was started again").isFalse();
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(b.leadership().participants(FEED)).containsExactly(b.id(), a.id()));
			assertThat(running(a)).isFalse();
			assertThat(a.isLeader(FEED)).isFalse();
			b.context().stop();
			await().atMost(WAIT).until(() -> running(a));
			assertThat(running(b)).isFalse();
			assertThat(Intervals.of("a")).hasSize(2);
			assertThat(Intervals.of("b")).singleElement().matches((interval) -> !interval.isOpen());
			assertThat(Intervals.overlaps()).isEmpty();
		}
	}

	@Test
	void leaderCutOffStopsItsComponentBeforeAnotherStartsIt(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (ChaosProxy proxy = ChaosProxy.start(server.getConnectString());
				Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.startVia(proxy.connectString(), "a", ComponentLeaderApplication.class);
			await().atMost(WAIT).until(() -> running(a));
			Instance b = instances.start("b", ComponentLeaderApplication.class);
			Instance c = instances.start("c", ComponentLeaderApplication.class);
			await().atMost(WAIT).until(() -> b.leadership().participants(FEED).size() == 3);
			long cut = System.nanoTime();
			proxy.blackhole();
			await().atMost(WAIT).until(() -> running(b));
			assertThat(running(a)).isFalse();
			Interval ofA = last("a");
			assertThat(ofA.isOpen()).isFalse();
			assertThat(TimeUnit.NANOSECONDS.toMillis(ofA.end() - cut)).as("ms from the cut to the stop of a")
				.isLessThan(2000);
			assertThat(ofA.end()).as("a stopped before b started").isLessThan(last("b").start());
			proxy.heal();
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(b.leadership().participants(FEED)).containsExactly(b.id(), c.id(),
						a.id()));
			assertThat(running(a) || running(c)).isFalse();
			assertThat(Intervals.overlaps()).isEmpty();
		}
	}

	@Test
	void componentThatFailsToStartGivesTheLeadershipAway(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", ComponentLeaderApplication.class, "feed.fail-start=true");
			await().atMost(WAIT).until(() -> a.bean(Feed.class).starts() > 0);
			Instance b = instances.start("b", ComponentLeaderApplication.class);
			await().atMost(WAIT).until(() -> running(b));
			assertThat(b.isLeader(FEED)).isTrue();
			assertThat(a.isLeader(FEED)).isFalse();
			assertThat(a.bean(LeaderComponents.class).describe(FEED)).singleElement()
				.satisfies((info) -> assertThat(info.failure()).contains("cannot connect"));
			assertThat(Intervals.of("a")).isEmpty();
		}
	}

	@Test
	void componentWhoseStartThrowsAnErrorGivesTheLeadershipAway(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		startFailureGivesTheLeadershipAway(server, test, "error");
	}

	@Test
	void componentWhoseStartThrowsACheckedExceptionGivesTheLeadershipAway(ZooKeeperTestServer server,
			TestInfo test) throws Exception {
		startFailureGivesTheLeadershipAway(server, test, "checked");
	}

	private void startFailureGivesTheLeadershipAway(ZooKeeperTestServer server, TestInfo test, String failure)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", ComponentLeaderApplication.class, "feed.fail-start=" + failure);
			await().atMost(WAIT).until(() -> a.bean(Feed.class).starts() > 0);
			Instance b = instances.start("b", ComponentLeaderApplication.class);
			await().atMost(WAIT).until(() -> running(b));
			assertThat(a.isLeader(FEED)).isFalse();
			assertThat(a.bean(LeaderComponents.class).describe(FEED)).singleElement()
				.satisfies((info) -> assertThat(info.failure()).contains("cannot connect"));
			assertThat(Intervals.of("a")).isEmpty();
		}
	}

	@Test
	void componentWhoseStopThrowsAnErrorIsStartedAgainWhenLeadingAgain(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (ChaosProxy proxy = ChaosProxy.start(server.getConnectString());
				Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.startVia(proxy.connectString(), "a", ComponentLeaderApplication.class,
					"feed.fail-stop=error");
			await().atMost(WAIT).until(() -> running(a));
			proxy.refuse();
			await().atMost(WAIT).until(() -> !running(a));
			proxy.heal();
			await().atMost(WAIT).until(() -> running(a)); // The only participant: it leads again.
			assertThat(Intervals.of("a")).hasSize(2);
		}
	}

	static boolean running(Instance instance) {
		return instance.bean(Feed.class).isRunning();
	}

	private static Interval last(String instance) {
		List<Interval> intervals = Intervals.of(instance);
		assertThat(intervals).as("intervals of " + instance).isNotEmpty();
		return intervals.get(intervals.size() - 1);
	}

}
