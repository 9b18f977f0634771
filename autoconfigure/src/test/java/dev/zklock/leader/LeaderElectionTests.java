package dev.zklock.leader;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.zklock.LeadershipEvent;
import dev.zklock.LeadershipGrantedEvent;
import dev.zklock.LeadershipRevokedEvent;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Elections among several application instances, each with its own ZooKeeper session.
 */
@EmbeddedZooKeeper
class LeaderElectionTests {

	private static final String JOBS = "jobs";

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Test
	void exactlyOneOfThreeInstancesLeads(ZooKeeperTestServer server, TestInfo test) throws Exception {
		try (Instances instances = instances(server, test)) {
			Instance a = instances.start("a", "zklock.leader.groups=" + JOBS);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			Instance b = instances.start("b", "zklock.leader.groups=" + JOBS);
			Instance c = instances.start("c", "zklock.leader.groups=" + JOBS);
			try (LeaderMonitor monitor = new LeaderMonitor(JOBS, a, b, c)) {
				for (Instance instance : List.of(a, b, c)) {
					await().atMost(WAIT)
						.untilAsserted(() -> assertThat(instance.leadership().participants(JOBS))
							.containsExactly(a.id(), b.id(), c.id()));
					assertThat(instance.leadership().currentLeader(JOBS)).contains(a.id());
				}
				assertThat(Stream.of(a, b, c).filter((instance) -> instance.isLeader(JOBS))).containsExactly(a);
				long czxid = leaderNodeStat(a, test).getCzxid();
				for (Instance instance : List.of(a, b, c)) {
					assertThat(instance.leadership().epoch(JOBS)).isEqualTo(OptionalLong.of(czxid));
				}
				assertThat(a.events(JOBS)).singleElement()
					.isInstanceOf(LeadershipGrantedEvent.class)
					.satisfies((event) -> assertThat(event.getEpoch()).isEqualTo(czxid));
				assertThat(b.events(JOBS)).isEmpty();
				assertThat(c.events(JOBS)).isEmpty();
				monitor.assertNoOverlap();
			}
		}
	}

	@Test
	void twoGroupsElectIndependently(ZooKeeperTestServer server, TestInfo test) throws Exception {
		try (Instances instances = instances(server, test)) {
			Instance a = instances.start("a", "zklock.leader.groups=jobs,reports");
			await().atMost(WAIT).until(() -> a.isLeader("jobs") && a.isLeader("reports"));
			Instance b = instances.start("b", "zklock.leader.groups=jobs,reports");
			Instance c = instances.start("c", "zklock.leader.groups=jobs,reports");
			try (LeaderMonitor jobs = new LeaderMonitor("jobs", a, b, c);
					LeaderMonitor reports = new LeaderMonitor("reports", a, b, c)) {
				long reportsEpoch = a.leadership().epoch("reports").orElseThrow();
				assertThat(a.leadership().yieldLeadership("jobs")).isTrue();
				await().atMost(WAIT).until(() -> b.isLeader("jobs"));
				assertThat(a.isLeader("jobs")).isFalse();
				assertThat(a.isLeader("reports")).isTrue();
				assertThat(a.leadership().epoch("reports")).hasValue(reportsEpoch);
				assertThat(b.isLeader("reports")).isFalse();
				assertThat(c.isLeader("jobs") || c.isLeader("reports")).isFalse();
				assertThat(a.leadership().groups()).containsExactly("jobs", "reports");
				jobs.assertNoOverlap();
				reports.assertNoOverlap();
			}
		}
	}

	@Test
	void gracefulShutdownOfTheLeaderHandsOverWithinOneSecond(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = instances(server, test)) {
			Instance a = instances.start("a", "zklock.leader.groups=" + JOBS);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			Instance b = instances.start("b", "zklock.leader.groups=" + JOBS);
			Instance c = instances.start("c", "zklock.leader.groups=" + JOBS);
			try (LeaderMonitor monitor = new LeaderMonitor(JOBS, a, b, c)) {
				await().atMost(WAIT).until(() -> a.leadership().participants(JOBS).size() == 3);
				long start = System.nanoTime();
				a.close();
				await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> b.isLeader(JOBS));
				long handover = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
				assertThat(handover).as("milliseconds from shutdown to a new leader").isLessThan(1000);
				assertThat(a.isLeader(JOBS)).isFalse();
				assertThat(a.events(JOBS)).last().isInstanceOf(LeadershipRevokedEvent.class);
				assertThat(b.leadership().participants(JOBS)).containsExactly(b.id(), c.id());
				monitor.assertNoOverlap();
			}
		}
	}

	@Test
	void yieldHandsOverAndEventsArriveInOrderWithIncreasingEpochs(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = instances(server, test)) {
			Instance a = instances.start("a", "zklock.leader.groups=" + JOBS);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			Instance b = instances.start("b", "zklock.leader.groups=" + JOBS);
			Instance c = instances.start("c", "zklock.leader.groups=" + JOBS);
			try (LeaderMonitor monitor = new LeaderMonitor(JOBS, a, b, c)) {
				await().atMost(WAIT).until(() -> a.leadership().participants(JOBS).size() == 3);
				assertThat(b.leadership().yieldLeadership(JOBS)).as("yield by a non-leader").isFalse();
				List<Instance> order = List.of(a, b, c, a, b);
				for (int i = 0; i < order.size() - 1; i++) {
					Instance leader = order.get(i);
					Instance next = order.get(i + 1);
					assertThat(leader.leadership().yieldLeadership(JOBS)).isTrue();
					assertThat(leader.isLeader(JOBS)).isFalse();
					await().atMost(WAIT).until(() -> next.isLeader(JOBS));
				}
				awaitEventsDelivered(JOBS, a, b, c);
				List<LeadershipEvent> granted = Stream.of(a, b, c)
					.flatMap((instance) -> instance.events(JOBS).stream())
					.filter(LeadershipGrantedEvent.class::isInstance)
					.sorted((x, y) -> Long.compare(x.getEpoch(), y.getEpoch()))
					.toList();
				assertThat(granted).extracting(LeadershipEvent::getParticipantId)
					.containsExactly(a.id(), b.id(), c.id(), a.id(), b.id());
				assertThat(granted).extracting(LeadershipEvent::getEpoch).doesNotHaveDuplicates();
				assertThat(granted).extracting(LeadershipEvent::getTimestamp).isSorted();
				for (Instance instance : List.of(a, b, c)) {
					assertAlternatingTerms(instance.events(JOBS));
				}
				monitor.assertNoOverlap();
			}
		}
	}

	@Test
	void soleParticipantThatYieldsLeadsAgainInANewTerm(ZooKeeperTestServer server, TestInfo test) {
		try (Instances instances = instances(server, test)) {
			Instance a = instances.start("a", "zklock.leader.groups=" + JOBS);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			long first = a.leadership().epoch(JOBS).orElseThrow();
			assertThat(a.leadership().yieldLeadership(JOBS)).isTrue();
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			assertThat(a.leadership().epoch(JOBS).orElseThrow()).isGreaterThan(first);
			awaitEventsDelivered(JOBS, a);
			assertThat(a.events(JOBS)).hasExactlyElementsOfTypes(LeadershipGrantedEvent.class,
					LeadershipRevokedEvent.class, LeadershipGrantedEvent.class);
			assertAlternatingTerms(a.events(JOBS));
		}
	}

	@Test
	void listenerThatThrowsDoesNotCostTheLeadership(ZooKeeperTestServer server, TestInfo test) {
		try (Instances instances = instances(server, test)) {
			Instance a = instances.start("a", ThrowingListenerConfiguration.class, "zklock.leader.groups=" + JOBS);
			ThrowingListener listener = a.bean(ThrowingListener.class);
			await().atMost(WAIT).until(() -> listener.events.size() == 1);
			assertThat(a.isLeader(JOBS)).isTrue();
			assertThat(a.leadership().yieldLeadership(JOBS)).isTrue();
			await().atMost(WAIT).until(() -> listener.events.size() == 3);
			assertThat(a.isLeader(JOBS)).isTrue();
			assertThat(listener.events).hasExactlyElementsOfTypes(LeadershipGrantedEvent.class,
					LeadershipRevokedEvent.class, LeadershipGrantedEvent.class);
		}
	}

	@Test
	void stoppedInstanceLeavesAndRejoinsAtTheBackWhenStartedAgain(ZooKeeperTestServer server, TestInfo test) {
		try (Instances instances = instances(server, test)) {
			Instance a = instances.start("a", "zklock.leader.groups=" + JOBS);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			Instance b = instances.start("b", "zklock.leader.groups=" + JOBS);
			a.context().stop();
			assertThat(a.isLeader(JOBS)).isFalse();
			await().atMost(WAIT).until(() -> b.isLeader(JOBS));
			assertThat(b.leadership().participants(JOBS)).containsExactly(b.id());
			a.context().start();
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(b.leadership().participants(JOBS)).containsExactly(b.id(), a.id()));
			assertThat(a.isLeader(JOBS)).isFalse();
			assertThat(b.isLeader(JOBS)).isTrue();
		}
	}

	@Test
	void instancesOfOneApplicationInOneProcessHaveDistinctReadableIds(ZooKeeperTestServer server, TestInfo test) {
		try (Instances instances = instances(server, test)) {
			Instance first = instances.start("inventory", "zklock.leader.groups=" + JOBS);
			Instance second = instances.start("inventory", "zklock.leader.groups=" + JOBS);
			String pid = Long.toString(ProcessHandle.current().pid());
			assertThat(first.id()).startsWith("inventory@").contains(":" + pid);
			assertThat(second.id()).startsWith("inventory@").contains(":" + pid).isNotEqualTo(first.id());
		}
	}

	@Test
	void groupThisInstanceDoesNotTakePartInIsRejected(ZooKeeperTestServer server, TestInfo test) {
		try (Instances instances = instances(server, test)) {
			Instance a = instances.start("a", "zklock.leader.groups=" + JOBS);
			assertThatIllegalArgumentException().isThrownBy(() -> a.isLeader("payroll"))
				.withMessageContaining("'payroll'")
				.withMessageContaining("[jobs]")
				.withMessageContaining("zklock.leader.groups");
		}
	}

	static Instances instances(ZooKeeperTestServer server, TestInfo test) {
		return new Instances(server.getConnectString(), basePath(test));
	}

	static String basePath(TestInfo test) {
		return "/zklock/" + test.getTestMethod().orElseThrow().getName();
	}

	private Stat leaderNodeStat(Instance instance, TestInfo test) throws Exception {
		String groupPath = basePath(test) + "/" + JOBS;
		List<String> children = instance.client().getChildren().forPath(groupPath);
		String first = children.stream()
			.min((x, y) -> x.substring(x.length() - 10).compareTo(y.substring(y.length() - 10)))
			.orElseThrow();
		return instance.client().checkExists().forPath(groupPath + "/" + first);
	}

	/**
	 * Wait until every instance's last event agrees with its current leadership.
	 */
	static void awaitEventsDelivered(String group, Instance... instances) {
		for (Instance instance : instances) {
			await().atMost(WAIT).until(() -> {
				List<LeadershipEvent> events = instance.events(group);
				boolean leads = instance.isLeader(group);
				boolean lastGranted = !events.isEmpty() && events.get(events.size() - 1) instanceof LeadershipGrantedEvent;
				return lastGranted == leads;
			});
		}
	}

	/**
	 * Assert that events alternate between a grant and the revocation of the same term, and
	 * that every term has a larger epoch than the one before.
	 */
	static void assertAlternatingTerms(List<LeadershipEvent> events) {
		long previousEpoch = Long.MIN_VALUE;
		for (int i = 0; i < events.size(); i++) {
			LeadershipEvent event = events.get(i);
			if (i % 2 == 0) {
				assertThat(event).as("event %d", i).isInstanceOf(LeadershipGrantedEvent.class);
				assertThat(event.getEpoch()).as("epoch of term %d", i / 2).isGreaterThan(previousEpoch);
				previousEpoch = event.getEpoch();
			}
			else {
				assertThat(event).as("event %d", i).isInstanceOf(LeadershipRevokedEvent.class);
				assertThat(event.getEpoch()).as("epoch of revoked term").isEqualTo(previousEpoch);
			}
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class ThrowingListenerConfiguration {

		@Bean
		ThrowingListener throwingListener() {
			return new ThrowingListener();
		}

	}

	static class ThrowingListener implements ApplicationListener<LeadershipEvent> {

		final List<LeadershipEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(LeadershipEvent event) {
			this.events.add(event);
			throw new IllegalStateException("Listener failure for the test");
		}

	}

}
