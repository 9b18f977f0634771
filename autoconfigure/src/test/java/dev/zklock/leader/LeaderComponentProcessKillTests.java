package dev.zklock.leader;

import java.time.Duration;
import java.util.stream.Stream;

import dev.zklock.leader.ComponentLeaderApplication.Intervals;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.JavaProcess;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The process running a leader-only component is killed with {@code SIGKILL}: another instance
 * starts its component only after the kill, once the server has expired the session.
 */
@EmbeddedZooKeeper
class LeaderComponentProcessKillTests {

	private static final String FEED = ComponentLeaderApplication.GROUP;

	@Test
	void anotherInstanceStartsTheComponentOnlyAfterTheLeaderIsKilled(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		Intervals.clear();
		try (Instances instances = LeaderElectionTests.instances(server, test);
				JavaProcess a = JavaProcess.builder(ComponentLeaderApplication.class)
					.name("a")
					.systemProperty("zklock.connect-string", server.getConnectString())
					.systemProperty("zklock.session-timeout", "2000ms")
					.systemProperty("zklock.leader.base-path", LeaderElectionTests.basePath(test))
					.systemProperty("spring.application.name", "a")
					.systemProperty("spring.main.banner-mode", "off")
					.start()) {
			a.awaitOutput("^feed started at \\d+$", Duration.ofSeconds(60));
			Instance b = instances.start("b", ComponentLeaderApplication.class);
			Instance c = instances.start("c", ComponentLeaderApplication.class);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(b.leadership().participants(FEED)).hasSize(3));
			assertThat(Intervals.all()).as("no component started here while a leads").isEmpty();
			long kill = System.nanoTime();
			a.kill();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> LeaderComponentTests.running(b) || LeaderComponentTests.running(c));
			assertThat(Intervals.all()).singleElement()
				.satisfies((interval) -> assertThat(interval.start()).as("started after the kill").isGreaterThan(kill));
			assertThat(Stream.of(b, c).filter(LeaderComponentTests::running)).hasSize(1);
			assertThat(Intervals.overlaps()).isEmpty();
		}
	}

}
