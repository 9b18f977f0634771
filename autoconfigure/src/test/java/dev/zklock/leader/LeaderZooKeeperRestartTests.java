package dev.zklock.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.zklock.LeadershipGrantedEvent;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ZooKeeper itself goes away and comes back, with every instance's session, and the leader's
 * node, restored by the server.
 */
@EmbeddedZooKeeper
class LeaderZooKeeperRestartTests {

	private static final String JOBS = "jobs";

	private static final Duration WAIT = Duration.ofSeconds(20);

	/**
	 * CURATOR-696: the instances' sessions end on the client side while the server is down,
	 * but the restarted server restores them, with the old leader's node, until they expire
	 * there too. The old node must not be mistaken for a live one, by its former owner or by
	 * anyone else.
	 */
	@Test
	void serverDownLongerThanTheSessionTimeoutElectsOneNewLeader(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", "zklock.leader.groups=" + JOBS);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			Instance b = instances.start("b", "zklock.leader.groups=" + JOBS);
			Instance c = instances.start("c", "zklock.leader.groups=" + JOBS);
			await().atMost(WAIT).until(() -> a.leadership().participants(JOBS).size() == 3);
			long firstEpoch = a.leadership().epoch(JOBS).orElseThrow();
			String groupPath = LeaderElectionTests.basePath(test) + "/" + JOBS;
			List<String> oldNodes = a.client().getChildren().forPath(groupPath);
			CountDownLatch lost = new CountDownLatch(3);
			for (Instance instance : List.of(a, b, c)) {
				instance.client().getConnectionStateListenable().addListener((client, state) -> {
					if (state == ConnectionState.LOST) {
						lost.countDown();
					}
				});
			}
			try (LeaderMonitor monitor = new LeaderMonitor(JOBS, a, b, c)) {
				server.stop();
				await().atMost(WAIT).until(() -> !a.isLeader(JOBS));
				assertThat(lost.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("every session lost").isTrue();
				server.restart();
				await().atMost(WAIT)
					.untilAsserted(() -> assertThat(a.leadership().participants(JOBS)).hasSize(3)
						.containsExactlyInAnyOrder(a.id(), b.id(), c.id()));
				await().atMost(WAIT).until(() -> leaders(a, b, c).size() == 1);
				Instance leader = leaders(a, b, c).get(0);
				assertThat(leader.leadership().epoch(JOBS).orElseThrow()).isGreaterThan(firstEpoch);
				assertThat(leader.leadership().currentLeader(JOBS)).contains(leader.id());
				// Once the restored sessions are gone from the server too, nothing changes.
				await().atMost(WAIT)
					.untilAsserted(() -> assertThat(a.client().getChildren().forPath(groupPath))
						.doesNotContainAnyElementsOf(oldNodes));
				assertThat(leaders(a, b, c)).containsExactly(leader);
				LeaderElectionTests.awaitEventsDelivered(JOBS, a, b, c);
				assertThat(Stream.of(a, b, c).flatMap((instance) -> instance.events(JOBS).stream()))
					.filteredOn(LeadershipGrantedEvent.class::isInstance)
					.hasSize(2);
				monitor.assertNoOverlap();
			}
		}
	}

	@Test
	void serverRestartedWithinTheSessionTimeoutLetsTheLeaderResume(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			String[] properties = { "zklock.leader.groups=" + JOBS, "zklock.session-timeout=6s" };
			Instance a = instances.start("a", properties);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			Instance b = instances.start("b", properties);
			Instance c = instances.start("c", properties);
			await().atMost(WAIT).until(() -> a.leadership().participants(JOBS).size() == 3);
			long epoch = a.leadership().epoch(JOBS).orElseThrow();
			try (LeaderMonitor monitor = new LeaderMonitor(JOBS, a, b, c)) {
				server.stop();
				await().atMost(WAIT).until(() -> !a.isLeader(JOBS));
				server.restart();
				await().atMost(WAIT).until(() -> a.isLeader(JOBS));
				assertThat(a.leadership().epoch(JOBS)).hasValue(epoch);
				assertThat(a.leadership().participants(JOBS)).containsExactly(a.id(), b.id(), c.id());
				LeaderElectionTests.awaitEventsDelivered(JOBS, a, b, c);
				assertThat(b.events(JOBS)).isEmpty();
				assertThat(c.events(JOBS)).isEmpty();
				monitor.assertNoOverlap();
			}
		}
	}

	private static List<Instance> leaders(Instance... instances) {
		return Stream.of(instances).filter((instance) -> instance.isLeader(JOBS)).toList();
	}

}
