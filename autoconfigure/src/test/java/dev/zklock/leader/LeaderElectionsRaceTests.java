package dev.zklock.leader;

import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * A group's election joined while the application starts or stops, explored by Lincheck's model
 * checker over the real {@link LeaderElections}: the group is found on a thread of its own (a
 * {@code @ZkLeader} method resolved lazily, a {@code @ZkLeaderComponent} bean created late), as
 * the lifecycle's {@code start()} or {@code stop()} runs on another. Under them a
 * {@link DisconnectedPort}: an election that takes part listens for the connection, and would
 * create its node and could lead as soon as it is there.
 */
@Timeout(120)
class LeaderElectionsRaceTests {

	private static final int INVOCATIONS = 50;

	private static final String GROUP = "jobs";

	private static Level level;

	@BeforeAll
	static void quietLogs() {
		Logger logger = (Logger) LoggerFactory.getLogger("dev.zklock.leader");
		level = logger.getLevel();
		logger.setLevel(Level.OFF);
	}

	@AfterAll
	static void restoreLogs() {
		((Logger) LoggerFactory.getLogger("dev.zklock.leader")).setLevel(level);
	}

	@Test
	void groupJoinedWhileTheApplicationStopsDoesNotTakePartAfterTheStop() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> {
			DisconnectedPort port = new DisconnectedPort();
			LeaderMethods methods = new LeaderMethods(GROUP, (group) -> group);
			LeaderElections elections = elections(port, methods);
			elections.start();
			Thread joining = RaceThreads.start(() -> methods.group(GROUP));
			Thread stopping = RaceThreads.start(elections::stop);
			RaceThreads.join(joining, stopping);
			try {
				RaceThreads.check(port.listeners() == 0,
						"the election of group '" + GROUP + "' takes part after the application stopped");
			}
			finally {
				elections.destroy();
			}
		});
	}

	@Test
	void groupJoinedWhileTheApplicationStartsTakesPart() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> {
			DisconnectedPort port = new DisconnectedPort();
			LeaderMethods methods = new LeaderMethods(GROUP, (group) -> group);
			LeaderElections elections = elections(port, methods);
			Thread joining = RaceThreads.start(() -> methods.group(GROUP));
			elections.start();
			RaceThreads.join(joining);
			// Not destroyed: nothing was stopped, so no thread of the elections was started.
			RaceThreads.check(port.listeners() == 1,
					"the election of group '" + GROUP + "', joined as the application started, takes no part");
		});
	}

	private static LeaderElections elections(DisconnectedPort port, LeaderMethods methods) {
		return new LeaderElections(port, "/zklock/leader", "a", Duration.ofSeconds(5), (event) -> {
		}, methods, List.of());
	}

}
