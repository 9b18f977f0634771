package dev.zklock.leader;

import java.time.Duration;
import java.util.List;

import dev.zklock.LeadershipEvent;
import dev.zklock.LeadershipGrantedEvent;
import dev.zklock.LeadershipRevokedEvent;
import dev.zklock.test.ChaosProxy;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The leader loses its connection to ZooKeeper while the other instances keep theirs: the
 * leader's traffic goes through a proxy that cuts it off.
 */
@EmbeddedZooKeeper
class LeaderConnectionLossTests {

	private static final String JOBS = "jobs";

	private static final Duration WAIT = Duration.ofSeconds(15);

	@Test
	void leaderCutOffStepsDownBeforeAnotherTakesOverAndRejoinsAtTheBack(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (ChaosProxy proxy = ChaosProxy.start(server.getConnectString());
				Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.startVia(proxy.connectString(), "a", LeaderTestApplication.class,
					"zklock.leader.groups=" + JOBS);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			Instance b = instances.start("b", "zklock.leader.groups=" + JOBS);
			Instance c = instances.start("c", "zklock.leader.groups=" + JOBS);
			await().atMost(WAIT).until(() -> b.leadership().participants(JOBS).size() == 3);
			long firstEpoch = a.leadership().epoch(JOBS).orElseThrow();
			try (LeaderMonitor monitor = new LeaderMonitor(JOBS, a, b, c)) {
				long cut = System.currentTimeMillis();
				proxy.blackhole(); // The leader hears nothing more, and is not heard.
				await().atMost(WAIT).until(() -> b.isLeader(JOBS));
				assertThat(a.isLeader(JOBS)).isFalse();
				LeaderElectionTests.awaitEventsDelivered(JOBS, a, b, c);
				// On a busy machine a short session may be suspended and granted again before the cut:
				// the step-down that counts is a's last revocation.
				List<LeadershipEvent> eventsOfA = a.events(JOBS);
				LeadershipEvent stepDown = eventsOfA.get(eventsOfA.size() - 1);
				LeadershipEvent takeOver = b.events(JOBS).get(0);
				assertThat(stepDown).isInstanceOf(LeadershipRevokedEvent.class);
				assertThat(takeOver).isInstanceOf(LeadershipGrantedEvent.class);
				assertThat(stepDown.getTimestamp()).as("step down of a, at most one session timeout after the cut at "
						+ cut).isBetween(cut, cut + 2000);
				assertThat(stepDown.getTimestamp()).as("step down of a before b took over")
					.isLessThan(takeOver.getTimestamp());
				assertThat(takeOver.getEpoch()).isGreaterThan(firstEpoch);
				proxy.heal();
				await().atMost(WAIT)
					.untilAsserted(() -> assertThat(b.leadership().participants(JOBS)).containsExactly(b.id(), c.id(),
							a.id()));
				assertThat(a.isLeader(JOBS)).isFalse();
				assertThat(b.isLeader(JOBS)).isTrue();
				assertThat(a.events(JOBS)).as("no grant to a after the cut").hasSize(eventsOfA.size());
				monitor.assertNoOverlap();
			}
		}
	}

	@Test
	void briefDisconnectionSuspendsTheLeaderUntilItReconnectsAndResumesItsTerm(ZooKeeperTestServer server,
			TestInfo test) throws Exception {
		try (ChaosProxy proxy = ChaosProxy.start(server.getConnectString());
				Instances instances = LeaderElectionTests.instances(server, test)) {
			String[] properties = { "zklock.leader.groups=" + JOBS, "zklock.session-timeout=4s" };
			Instance a = instances.startVia(proxy.connectString(), "a", LeaderTestApplication.class, properties);
			await().atMost(WAIT).until(() -> a.isLeader(JOBS));
			Instance b = instances.start("b", properties);
			Instance c = instances.start("c", properties);
			await().atMost(WAIT).until(() -> b.leadership().participants(JOBS).size() == 3);
			long epoch = a.leadership().epoch(JOBS).orElseThrow();
			try (LeaderMonitor monitor = new LeaderMonitor(JOBS, a, b, c)) {
				proxy.refuse();
				await().atMost(WAIT).until(() -> !a.isLeader(JOBS));
				proxy.heal();
				await().atMost(WAIT).until(() -> a.isLeader(JOBS));
				assertThat(a.leadership().epoch(JOBS)).hasValue(epoch);
				LeaderElectionTests.awaitEventsDelivered(JOBS, a, b, c);
				List<LeadershipEvent> events = a.events(JOBS);
				assertThat(events).hasExactlyElementsOfTypes(LeadershipGrantedEvent.class,
						LeadershipRevokedEvent.class, LeadershipGrantedEvent.class);
				assertThat(events).extracting(LeadershipEvent::getEpoch).containsOnly(epoch);
				assertThat(b.events(JOBS)).isEmpty();
				assertThat(c.events(JOBS)).isEmpty();
				monitor.assertNoOverlap();
			}
		}
	}

}
