package dev.zklock.leader;

import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Thread races of {@link ElectionState}, explored by Lincheck's model checker: a look's last
 * step (the reply that finds our node lowest, on ZooKeeper's event thread) against a connection
 * change (on Curator's own thread). The look checks that its generation is still current, then
 * grants; a suspension that lands between the two must still win, which only the generation
 * checked again under the state's lock in {@code grant} makes sure of.
 */
@Timeout(120)
class ElectionStateRaceTests {

	private static final int INVOCATIONS = 100;

	private static final String NODE = "/zklock/leader/g/_c_id-n-0000000001";

	private static Level level;

	/**
	 * The state logs every grant and revocation: off here, as the model checker runs the
	 * logging too, thousands of times.
	 */
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
	void aSuspensionDuringTheLastStepOfALookLeavesNoLeader() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> {
			AtomicInteger grants = new AtomicInteger();
			ElectionState state = joined(grants);
			long generation = state.beginCheck();
			Thread looking = RaceThreads.start(() -> {
				if (state.isCurrent(generation)) {
					state.grant(generation, NODE, 1, true);
				}
			});
			Thread suspending = RaceThreads.start(state::suspended);
			RaceThreads.join(looking, suspending);
			RaceThreads.check(!state.isLeader(), "the instance leads after its connection was suspended");
		});
	}

	@Test
	void aYieldDuringTheLastStepOfALookLeavesNoLeader() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> {
			AtomicInteger grants = new AtomicInteger();
			ElectionState state = joined(grants);
			long generation = state.beginCheck();
			state.grant(generation, NODE, 1, true);
			long next = state.beginCheck();
			Thread looking = RaceThreads.start(() -> {
				if (state.isCurrent(next)) {
					state.grant(next, NODE, 1, true);
				}
			});
			Thread yielding = RaceThreads.start(state::yieldLeadership);
			RaceThreads.join(looking, yielding);
			RaceThreads.check(!state.isLeader(), "the instance leads after it yielded");
		});
	}

	/**
	 * A state that takes part, connected, with a node of its own.
	 */
	private static ElectionState joined(AtomicInteger grants) {
		ElectionState state = new ElectionState("g", "a", new LeadershipListener() {

			@Override
			public void granted(String group, long epoch) {
				grants.incrementAndGet();
			}

			@Override
			public void revoked(String group, long epoch, String reason) {
			}

		});
		long started = state.start();
		state.connectedAtStart(started, true);
		state.createSent("id");
		state.createAnswered("id", NODE);
		return state;
	}

}
