package dev.zklock.systemtest.check;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;

import static dev.zklock.systemtest.check.Ops.connection;
import static dev.zklock.systemtest.check.Ops.granted;
import static dev.zklock.systemtest.check.Ops.revoked;
import static dev.zklock.systemtest.check.Ops.tick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests of the {@link Checker} on the leadership invariants and failovers, with hand-made
 * histories.
 */
class LeaderInvariantsTests {

	@Test
	void successiveTermsHaveNoViolationAndTheirFailoversAreMeasured() {
		CheckReport report = check(granted("p1", 0, 1), tick("p1", 10, 11, 1), tick("p1", 60, 61, 1),
				revoked("p1", 70, 1), granted("p2", 80, 2), tick("p2", 100, 101, 2), tick("p2", 150, 151, 2),
				granted("p3", 200, 5), tick("p3", 210, 211, 5), granted("p1", 400, 7), tick("p1", 420, 421, 7));
		assertThat(report.violations()).isEmpty();
		assertThat(report.failovers()).extracting(Failover::fromProcess, Failover::toProcess, Failover::gapMillis,
				Failover::revokedAt)
			.containsExactly(tuple("p1", "p2", 39L, 70L), tuple("p2", "p3", 59L, null), tuple("p3", "p1", 209L, null));
	}

	@Test
	void ticksOfTwoTermsInterleavingWithoutRevocationAreTwoLeaders() {
		CheckReport report = check(tick("p1", 0, 1, 1), tick("p1", 100, 101, 1), tick("p2", 50, 51, 2));
		assertThat(report.violationsOf(Invariant.DUAL_LEADER)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).isEqualTo(
					"p1#1 and p2#2 both led 'ticker', and p1#1 was never revoked"));
	}

	@Test
	void aTickInProgressWhenTheNextLeaderStartsIsExcusedByARevocation() {
		CheckReport report = check(tick("p1", 0, 1, 1), tick("p1", 40, 100, 1), tick("p2", 50, 51, 2),
				revoked("p1", 120, 1));
		assertThat(report.violations()).isEmpty();
		assertThat(report.failovers()).singleElement().extracting(Failover::gapMillis).isEqualTo(-50L);
	}

	@Test
	void aTickStartingAfterTheRevocationIsAViolation() {
		CheckReport report = check(tick("p1", 0, 1, 1), revoked("p1", 50, 1), tick("p1", 60, 61, 1));
		assertThat(report.violationsOf(Invariant.TICK_AFTER_REVOCATION)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).contains("ticked 10 ms after its revocation"));
	}

	@Test
	void aLaterTermWithALowerEpochIsAViolation() {
		CheckReport report = check(granted("p1", 0, 5), tick("p1", 10, 11, 5), revoked("p1", 12, 5),
				granted("p2", 20, 3), tick("p2", 30, 31, 3));
		assertThat(report.violationsOf(Invariant.EPOCH_ORDER)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).isEqualTo(
					"p2#3 began in 'ticker' after p1#5 ended, with a lower epoch"));
	}

	@Test
	void twoProcessesSharingAnEpochIsAViolation() {
		CheckReport report = check(tick("p1", 10, 11, 4), revoked("p1", 12, 4), tick("p2", 30, 31, 4));
		assertThat(report.violationsOf(Invariant.EPOCH_ORDER)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).contains("share epoch 4"));
	}

	@Test
	void ticksThatFailedBelongToNoLeaderAndGroupsAreIndependent() {
		Operation failedTick = Operation.of("p1", OpKind.LEADER_TICK, Ops.GROUP, 50, 51, 1L, Outcome.LOCK_LOST);
		Operation otherGroup = Operation.of("p3", OpKind.LEADER_TICK, "other", 50, 51, 9L, Outcome.OK);
		CheckReport report = check(tick("p1", 0, 1, 1), failedTick, otherGroup, tick("p2", 40, 41, 2),
				tick("p2", 100, 101, 2));
		assertThat(report.violations()).isEmpty();
		assertThat(report.failovers()).hasSize(1);
	}

	@Test
	void aTermRevokedOnASuspensionAndGrantedAgainWithTheSameEpochMayTickAgain() {
		CheckReport report = check(granted("p1", 0, 1), tick("p1", 10, 11, 1), revoked("p1", 20, 1),
				granted("p1", 500, 1), tick("p1", 510, 511, 1), revoked("p1", 600, 1), granted("p2", 700, 2),
				tick("p2", 710, 711, 2));
		assertThat(report.violations()).isEmpty();
		assertThat(report.failovers()).singleElement()
			.extracting(Failover::fromProcess, Failover::revokedAt, Failover::gapMillis)
			.containsExactly("p1", 600L, 199L);
	}

	@Test
	void aRevocationFollowedByAGrantOfTheSameTermDoesNotExcuseALaterInterleaving() {
		CheckReport report = check(granted("p1", 0, 1), tick("p1", 10, 11, 1), revoked("p1", 20, 1),
				granted("p1", 500, 1), tick("p1", 510, 511, 1), tick("p2", 700, 701, 2), tick("p1", 800, 801, 1));
		assertThat(report.violationsOf(Invariant.DUAL_LEADER)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).isEqualTo(
					"p1#1 and p2#2 both led 'ticker', and p1#1 was never revoked"));
	}

	@Test
	void aTickAfterTheLastRevocationOfARenewedTermIsAViolation() {
		CheckReport report = check(granted("p1", 0, 1), revoked("p1", 20, 1), granted("p1", 500, 1),
				tick("p1", 510, 511, 1), revoked("p1", 600, 1), tick("p1", 650, 651, 1));
		assertThat(report.violationsOf(Invariant.TICK_AFTER_REVOCATION)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).contains("ticked 50 ms after its revocation"));
	}

	@Test
	void aTickOfAnEarlierTermAfterALaterTermWasGrantedIsStaleEvenIfRevokedAfterwards() {
		CheckReport report = check(granted("p1", 0, 1), tick("p1", 10, 11, 1), granted("p2", 3_000, 2),
				tick("p2", 3_050, 3_051, 2), tick("p1", 5_000, 5_001, 1), tick("p1", 5_050, 5_051, 1),
				revoked("p1", 5_100, 1));
		assertThat(report.violationsOf(Invariant.STALE_TICK)).singleElement()
			.satisfies((violation) -> assertThat(violation.message())
				.isEqualTo("p1#1 in 'ticker' ticked 2 times after p2#2 began, the first 2000 ms after"));
		assertThat(report.violationsOf(Invariant.DUAL_LEADER)).isEmpty();
	}

	@Test
	void aLaterTermWithoutALoggedGrantBeginsWithItsFirstTick() {
		CheckReport report = check(tick("p1", 10, 11, 1), tick("p2", 3_050, 3_051, 2), tick("p1", 3_060, 3_061, 1),
				revoked("p1", 3_100, 1));
		assertThat(report.violationsOf(Invariant.STALE_TICK)).hasSize(1);
	}

	@Test
	void aTickInProgressWhenALaterTermIsGrantedIsNotStale() {
		CheckReport report = check(tick("p1", 2_990, 3_010, 1), granted("p2", 3_000, 2), revoked("p1", 3_020, 1),
				tick("p2", 3_050, 3_051, 2));
		assertThat(report.violations()).isEmpty();
	}

	@Test
	void aTickBetweenARevocationAndTheReconnectionBeforeTheSameTermIsGrantedAgainIsAViolation() {
		CheckReport report = check(granted("p1", 0, 1), tick("p1", 10, 11, 1), revoked("p1", 20, 1),
				tick("p1", 100, 101, 1), connection("p1", 400, "RECONNECTED"), granted("p1", 410, 1),
				tick("p1", 420, 421, 1));
		assertThat(report.violationsOf(Invariant.TICK_AFTER_REVOCATION)).singleElement()
			.satisfies((violation) -> {
				assertThat(violation.message()).contains("ticked 80 ms after a revocation, before it reconnected");
				assertThat(violation.operations()).extracting(Operation::start).containsExactly(100L);
			});
	}

	@Test
	void aTickAfterTheReconnectionStartedBeforeTheGrantWasLoggedIsNotAViolation() {
		CheckReport report = check(granted("p1", 0, 1), revoked("p1", 20, 1), connection("p1", 400, "RECONNECTED"),
				tick("p1", 405, 406, 1), granted("p1", 410, 1));
		assertThat(report.violations()).isEmpty();
	}

	private static CheckReport check(Operation... operations) {
		return Checker.check(History.of(List.of(operations)), List.of());
	}

}
