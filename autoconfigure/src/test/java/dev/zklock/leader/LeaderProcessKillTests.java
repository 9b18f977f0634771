package dev.zklock.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.JavaProcess;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The leader's process is killed with {@code SIGKILL}: it cannot leave the election, so another
 * instance takes over when the server expires its session.
 */
@EmbeddedZooKeeper
class LeaderProcessKillTests {

	private static final String GROUP = TickingLeaderApplication.GROUP;

	private static final long SESSION_TIMEOUT_MILLIS = 2000;

	@Test
	void anotherInstanceLeadsWithinTheSessionTimeoutPlusTwoTicksAfterTheLeaderIsKilled(ZooKeeperTestServer server,
			TestInfo test) throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test);
				JavaProcess a = JavaProcess.builder(TickingLeaderApplication.class)
					.name("a")
					.systemProperty("zklock.connect-string", server.getConnectString())
					.systemProperty("zklock.session-timeout", SESSION_TIMEOUT_MILLIS + "ms")
					.systemProperty("zklock.leader.base-path", LeaderElectionTests.basePath(test))
					.systemProperty("spring.application.name", "a")
					.systemProperty("spring.main.banner-mode", "off")
					.start()) {
			a.awaitOutput("^tick 3$", Duration.ofSeconds(60));
			Instance b = instances.start("b", TickingLeaderApplication.class);
			Instance c = instances.start("c", TickingLeaderApplication.class);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(b.leadership().participants(GROUP)).hasSize(3));
			assertThat(b.leadership().currentLeader(GROUP)).hasValueSatisfying(
					(leader) -> assertThat(leader).startsWith("a@").endsWith(":" + a.pid()));
			try (LeaderMonitor monitor = new LeaderMonitor(GROUP, b, c)) {
				assertThat(ticks(b, c)).isZero();
				long kill = System.nanoTime();
				a.kill();
				await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> ticks(b, c) > 0);
				long takeover = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - kill);
				// The server expires sessions once per tick, so at most one tick after their timeout.
				assertThat(takeover).as("milliseconds from the kill to the first tick elsewhere")
					.isLessThan(SESSION_TIMEOUT_MILLIS + 2L * server.getTickTime());
				assertThat(Stream.of(b, c).filter((instance) -> instance.isLeader(GROUP))).hasSize(1);
				assertThat(b.leadership().participants(GROUP)).containsExactly(b.id(), c.id());
				monitor.assertNoOverlap();
			}
		}
	}

	private static int ticks(Instance... instances) {
		return List.of(instances)
			.stream()
			.mapToInt((instance) -> instance.bean(TickingLeaderApplication.TickJob.class).ticks())
			.sum();
	}

}
