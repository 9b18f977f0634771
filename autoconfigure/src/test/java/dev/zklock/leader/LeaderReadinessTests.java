package dev.zklock.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.autoconfigure.ZkLeaderReadinessAutoConfiguration;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Active-passive readiness: with {@code zklock.leader.readiness-group}, only the leader of the
 * group accepts traffic.
 */
@EmbeddedZooKeeper
class LeaderReadinessTests {

	private static final String WEB = "web";

	private static final Duration WAIT = Duration.ofSeconds(15);

	@Test
	void readinessFollowsLeadership(ZooKeeperTestServer server, TestInfo test) throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", ReadinessApplication.class, "zklock.leader.readiness-group=" + WEB);
			await().atMost(WAIT).until(() -> a.isLeader(WEB));
			Instance b = instances.start("b", ReadinessApplication.class, "zklock.leader.readiness-group=" + WEB);
			await().atMost(WAIT).until(() -> b.leadership().participants(WEB).size() == 2);
			assertThat(readiness(a)).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
			assertThat(readiness(b)).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
			a.leadership().yieldLeadership(WEB);
			await().atMost(WAIT).until(() -> b.isLeader(WEB));
			assertThat(readiness(a)).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
			assertThat(readiness(b)).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(lastEvent(b)).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC));
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(lastEvent(a)).isEqualTo(ReadinessState.REFUSING_TRAFFIC));
		}
	}

	@Test
	void withoutTheReadinessGroupEveryInstanceAcceptsTraffic(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test)) {
			Instance a = instances.start("a", ReadinessApplication.class, "zklock.leader.groups=" + WEB);
			Instance b = instances.start("b", ReadinessApplication.class, "zklock.leader.groups=" + WEB);
			await().atMost(WAIT).until(() -> a.isLeader(WEB));
			assertThat(readiness(a)).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
			assertThat(readiness(b)).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
		}
	}

	private static ReadinessState readiness(Instance instance) {
		return instance.bean(ApplicationAvailability.class).getReadinessState();
	}

	private static ReadinessState lastEvent(Instance instance) {
		List<ReadinessState> states = instance.bean(ReadinessRecorder.class).states;
		return states.get(states.size() - 1);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZkLeaderReadinessAutoConfiguration.class,
			ApplicationAvailabilityAutoConfiguration.class })
	static class ReadinessApplication {

		@Bean
		ReadinessRecorder readinessRecorder() {
			return new ReadinessRecorder();
		}

	}

	static class ReadinessRecorder implements ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

		final List<ReadinessState> states = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
			this.states.add(event.getState());
		}

	}

}
