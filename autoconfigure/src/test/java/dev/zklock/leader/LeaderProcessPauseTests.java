package dev.zklock.leader;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.JavaProcess;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The leader's whole process is paused (SIGSTOP, as a long GC or a frozen VM would) past its
 * session timeout, and another instance takes over. When the paused process wakes, it must not
 * run one more leader-only call on the strength of what it knew before the pause.
 */
@EmbeddedZooKeeper
@Timeout(120)
class LeaderProcessPauseTests {

	private static final String GROUP = TickingLeaderApplication.GROUP;

	private static final Pattern TICK = Pattern.compile("^tick \\d+ at (\\d+)$", Pattern.MULTILINE);

	@Test
	void aLeaderPausedPastItsSessionRunsNoLeaderOnlyCallAfterWaking(ZooKeeperTestServer server, TestInfo test)
			throws Exception {
		try (Instances instances = LeaderElectionTests.instances(server, test);
				JavaProcess a = JavaProcess.builder(TickingLeaderApplication.class)
					.name("a")
					.systemProperty("ticks.stamped", "true")
					.systemProperty("zklock.connect-string", server.getConnectString())
					.systemProperty("zklock.session-timeout", "2000ms")
					.systemProperty("zklock.leader.base-path", LeaderElectionTests.basePath(test))
					.systemProperty("spring.application.name", "a")
					.systemProperty("spring.main.banner-mode", "off")
					.start()) {
			a.awaitOutput("^tick 3 at \\d+$", Duration.ofSeconds(60));
			Instance b = instances.start("b", TickingLeaderApplication.class);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(b.leadership().participants(GROUP)).hasSize(2));
			a.pause();
			long resumedAt;
			try {
				await().atMost(Duration.ofSeconds(20)).until(() -> b.isLeader(GROUP));
			}
			finally {
				resumedAt = System.currentTimeMillis();
				a.resume();
			}
			// The woken process learns it lost the term, and rejoins behind b.
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(b.leadership().participants(GROUP)).hasSize(2)
					.first()
					.isEqualTo(b.id()));
			a.awaitOutput("is no longer the leader of group 'ticks'", Duration.ofSeconds(20));
			assertThat(ticksStartedAfter(a.outputText(), resumedAt)).as("ticks the paused leader ran after waking")
				.isEmpty();
		}
	}

	private static List<Long> ticksStartedAfter(String output, long instant) {
		Matcher matcher = TICK.matcher(output);
		List<Long> after = new java.util.ArrayList<>();
		while (matcher.find()) {
			long at = Long.parseLong(matcher.group(1));
			if (at >= instant) {
				after.add(at);
			}
		}
		return after;
	}

}
