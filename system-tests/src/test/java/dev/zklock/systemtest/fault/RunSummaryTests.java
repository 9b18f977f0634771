package dev.zklock.systemtest.fault;

import java.util.List;

import dev.zklock.systemtest.check.Checker;
import dev.zklock.systemtest.check.Invariant;
import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for {@link RunSummary} on hand-made histories.
 */
class RunSummaryTests {

	@Test
	void failoversAreAttributedToTheFaultOnTheOldLeaderOrOnZooKeeper() {
		Fault kill = new Fault(Nemesis.KILL_APP, "app-1", 1_000, 9_000, "");
		Fault partition = new Fault(Nemesis.PARTITION_APP, "app-2", 10_000, 15_000, "");
		Fault zooKeeper = new Fault(Nemesis.KILL_ZK_LEADER, "zk-3", 20_000, 25_000, "");
		Fault unrelated = new Fault(Nemesis.STOP_APP, "app-3", 29_000, 30_000, "");
		History history = History.of(List.of(tick("app-1", 990, 1), tick("app-2", 4_100, 2),
				tick("app-2", 12_000, 2), revoked("app-2", 12_010, 2), tick("app-3", 13_200, 3),
				tick("app-3", 20_500, 3), tick("app-1", 23_000, 4), tick("app-1", 29_500, 4), tick("app-2", 33_000, 5)));
		RunSummary summary = summary(history, kill, partition, zooKeeper, unrelated);
		assertThat(summary.failovers()).extracting(CausedFailover::causeLabel, CausedFailover::sinceFaultMillis)
			.containsExactly(tuple("kill-app", 3_100L), tuple("partition-app", 3_200L),
					tuple("kill-zk-leader", 3_000L), tuple("no fault", 3_499L));
		assertThat(summary.faultCounts()).containsEntry(Nemesis.KILL_APP, 1L).containsEntry(Nemesis.STOP_APP, 1L);
	}

	@Test
	void ticksOfAPausedLeaderAfterTheNewLeadersFirstTickAreStaleAndAViolation() {
		Fault pause = new Fault(Nemesis.PAUSE_HOLDER, "app-1", 1_000, 5_000, "holding counter");
		History history = History.of(List.of(tick("app-1", 900, 1), tick("app-2", 4_200, 2), tick("app-1", 5_010, 1),
				tick("app-2", 5_020, 2), tick("app-1", 5_060, 1), revoked("app-1", 5_100, 1), tick("app-2", 5_070, 2)));
		RunSummary summary = summary(history, pause);
		assertThat(summary.report().violations()).singleElement()
			.satisfies((violation) -> assertThat(violation.invariant()).isEqualTo(Invariant.STALE_TICK));
		assertThat(summary.staleTicks()).singleElement().satisfies((stale) -> {
			assertThat(stale.count()).isEqualTo(2);
			assertThat(stale.spanMillis()).isEqualTo(51);
		});
		assertThat(summary.toString()).contains("1, 2 such ticks, the longest run of them 51 ms")
			.contains("pause-holder: n=1, min=3200 median=3200 max=3200 ms");
	}

	@Test
	void aFailoverWithoutOverlapHasNoStaleTicks() {
		History history = History.of(List.of(tick("app-1", 900, 1), revoked("app-1", 950, 1), tick("app-2", 1_200, 2)));
		assertThat(summary(history).staleTicks()).extracting(StaleTicks::count).isEmpty();
	}

	@Test
	void lockStallsAreTheLongestGapsBetweenOkOperationsAroundEachFault() {
		List<Operation> operations = new java.util.ArrayList<>();
		for (long start = 0; start < 30_000; start += 100) {
			if (start < 5_000 || start >= 8_200) {
				operations.add(Operation.of("app-1", OpKind.EXCLUSIVE_INCREMENT, "counter", start, start + 10, start,
						Outcome.OK));
			}
		}
		Fault kill = new Fault(Nemesis.KILL_APP, "app-2", 5_050, 6_000, "");
		Fault quiet = new Fault(Nemesis.STOP_APP, "app-3", 17_000, 17_500, "");
		RunSummary summary = summary(History.of(operations), kill, quiet);
		assertThat(LockStalls.byFault(summary.history(), "counter", summary.faults())).containsEntry("kill-app",
				List.of(3_150L)).containsEntry("stop-app", List.of(90L));
		assertThat(summary.toString()).contains("kill-app: n=1, min=3150 median=3150 max=3150 ms");
	}

	private static RunSummary summary(History history, Fault... faults) {
		return new RunSummary("test", "v1-dirty", 42L, 60_000, Checker.check(history, List.of()), List.of(faults), history);
	}

	private static Operation tick(String process, long start, long epoch) {
		return Operation.of(process, OpKind.LEADER_TICK, "ticks", start, start + 1, epoch, Outcome.OK);
	}

	private static Operation revoked(String process, long time, long epoch) {
		return Operation.event(process, OpKind.LEADER_REVOKED, "ticks", time, epoch);
	}

}
