package dev.zklock.systemtest.check;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.register.RegisterState;

import static dev.zklock.systemtest.check.Ops.connection;
import static dev.zklock.systemtest.check.Ops.excl;
import static dev.zklock.systemtest.check.Ops.fault;
import static dev.zklock.systemtest.check.Ops.shared;
import static dev.zklock.systemtest.history.Outcome.ERROR;
import static dev.zklock.systemtest.history.Outcome.FENCED;
import static dev.zklock.systemtest.history.Outcome.LOCK_LOST;
import static dev.zklock.systemtest.history.Outcome.OK;
import static dev.zklock.systemtest.history.Outcome.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the {@link Checker} on the lock invariants, with hand-made histories.
 */
class LockInvariantsTests {

	@Test
	void aCorrectHistoryHasNoViolation() {
		CheckReport report = check(List.of(
				excl("p1", "counter", 0, 10, 1, OK),
				excl("p2", "counter", 10, 20, 2, OK),
				excl("p3", "counter", 21, 30, 3, LOCK_LOST),
				Operation.of("p1", OpKind.EXCLUSIVE_INCREMENT, "counter", 11, 40, null, TIMEOUT),
				excl("p2", "counter", 40, 50, 4, OK),
				excl("p3", "counter", 45, 55, 3, FENCED),
				fault("p3", 20, 5_000, "partition-app"),
				Operation.of("p1", OpKind.EXCLUSIVE_INCREMENT, "counter", 60, 70, null, ERROR),
				shared("p1", "mix", 0, 20, 10, OK),
				shared("p2", "mix", 5, 25, 11, OK),
				excl("p3", "mix", 30, 40, 12, OK),
				shared("p1", "mix", 45, 50, 13, OK)),
				new RegisterState("counter", 3, 6, 6, 5, 3, 1, 0), new RegisterState("mix", 1, 13, 12, 3, 1, 0, 0));
		assertThat(report.violations()).isEmpty();
		assertThat(report.hasViolations()).isFalse();
	}

	@Test
	void overlappingOkExclusiveOperationsBreakExclusion() {
		CheckReport report = check(List.of(excl("p1", "counter", 0, 20, 1, OK), excl("p2", "counter", 19, 30, 2, OK)));
		assertThat(report.violationsOf(Invariant.EXCLUSION)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).contains("p1 and p2 at once for 1 ms"));
	}

	@Test
	void anOkExclusiveOperationOverlappingAnOkSharedOneBreaksExclusionEitherWay() {
		assertThat(check(List.of(shared("p1", "mix", 0, 20, 1, OK), excl("p2", "mix", 10, 30, 2, OK)))
			.violationsOf(Invariant.EXCLUSION)).hasSize(1);
		assertThat(check(List.of(excl("p1", "mix", 0, 20, 1, OK), shared("p2", "mix", 10, 30, 2, OK)))
			.violationsOf(Invariant.EXCLUSION)).hasSize(1);
	}

	@Test
	void operationsOnDifferentKeysDoNotConflict() {
		assertThat(check(List.of(excl("p1", "one", 0, 20, 1, OK), excl("p2", "two", 10, 30, 2, OK))).violations())
			.isEmpty();
	}

	@Test
	void anOperationSupersededDuringItsRunMustNotEndOk() {
		Operation holder = excl("p1", "counter", 0, 100, 1, OK);
		Operation taker = excl("p2", "counter", 50, 60, 2, FENCED);
		CheckReport report = check(List.of(holder, taker));
		assertThat(report.violationsOf(Invariant.SILENT_TAKEOVER)).singleElement()
			.satisfies((violation) -> assertThat(violation.operations()).containsExactly(holder, taker));
		assertThat(report.violationsOf(Invariant.EXCLUSION)).isEmpty();
	}

	@Test
	void anOperationSupersededDuringItsRunMayEndLockLostOrFenced() {
		assertThat(check(List.of(excl("p1", "counter", 0, 100, 1, LOCK_LOST), excl("p2", "counter", 50, 60, 2, OK),
				connection("p1", 40, "SUSPENDED"))).violations()).isEmpty();
		assertThat(check(List.of(excl("p1", "counter", 0, 100, 1, FENCED), excl("p2", "counter", 50, 60, 2, OK),
				fault("p1", 10, 4_000, "pause-holder"))).violations()).isEmpty();
	}

	@Test
	void aPausedHolderStartingAfterALaterHolderMustNotEndOk() {
		CheckReport report = check(List.of(excl("p2", "counter", 0, 10, 2, OK), excl("p1", "counter", 20, 30, 1, OK)));
		assertThat(report.violationsOf(Invariant.SILENT_TAKEOVER)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).startsWith("p1 ended ok on 'counter' with token 1"));
		assertThat(check(List.of(excl("p2", "counter", 0, 10, 2, OK), excl("p1", "counter", 20, 30, 1, FENCED),
				fault("p1", 0, 4_000, "pause-holder"))).violations()).isEmpty();
	}

	@Test
	void anOperationWithALowerTokenStartingInsideDoesNotSupersede() {
		assertThat(check(List.of(excl("p1", "counter", 0, 100, 5, OK), excl("p2", "counter", 50, 60, 3, FENCED),
				connection("p2", 5_050, "LOST"))).violations()).isEmpty();
	}

	@Test
	void aSharedReadIsSupersededByAnExclusiveGrantButNotByAnotherSharedOne() {
		assertThat(check(List.of(shared("p1", "mix", 0, 100, 1, OK), excl("p2", "mix", 50, 60, 2, FENCED)))
			.violationsOf(Invariant.SILENT_TAKEOVER)).hasSize(1);
		assertThat(check(List.of(shared("p1", "mix", 0, 100, 1, OK), shared("p2", "mix", 50, 60, 2, OK))).violations())
			.isEmpty();
	}

	@Test
	void aRegisterWhoseValueDiffersFromItsAcceptedWritesLostAnUpdate() {
		CheckReport report = check(List.of(excl("p1", "counter", 0, 10, 1, OK)),
				new RegisterState("counter", 5, 9, 9, 6, 6, 0, 0));
		assertThat(report.violationsOf(Invariant.LOST_UPDATE)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).isEqualTo("Register 'counter' holds 5 after 6 accepted writes"));
	}

	@Test
	void moreOkIncrementsThanAcceptedWritesLostAnUpdate() {
		CheckReport report = check(List.of(excl("p1", "counter", 0, 10, 1, OK), excl("p2", "counter", 10, 20, 2, OK)),
				new RegisterState("counter", 1, 2, 2, 2, 1, 0, 1));
		assertThat(report.violationsOf(Invariant.LOST_UPDATE)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).contains("2 increments of 'counter' ended ok"));
	}

	@Test
	void aFencedOperationWithNoFaultOrConnectionChangeOfItsProcessNearbyIsUnexplained() {
		Operation fenced = excl("p1", "counter", 10_000, 10_010, 1, FENCED);
		CheckReport report = check(List.of(excl("p2", "counter", 9_000, 10_005, 2, OK), fenced,
				connection("p1", 4_000, "SUSPENDED"), fault("p1", 0, 4_999, "partition-app"),
				connection("p2", 10_000, "SUSPENDED"), fault("p2", 9_000, 12_000, "kill-app")));
		assertThat(report.violationsOf(Invariant.UNEXPLAINED_FAILURE)).singleElement()
			.satisfies((violation) -> {
				assertThat(violation.message()).isEqualTo("p1 ended fenced on 'counter' with no fault on it and no "
						+ "change of its connection within 5000 ms");
				assertThat(violation.operations()).containsExactly(fenced);
			});
	}

	@Test
	void aLockLostWithAConnectionChangeOfItsProcessShortlyAfterIsExplained() {
		assertThat(check(List.of(excl("p1", "counter", 10_000, 10_010, 1, LOCK_LOST),
				connection("p1", 15_010, "SUSPENDED"))).violations()).isEmpty();
		assertThat(check(List.of(excl("p1", "counter", 10_000, 10_010, 1, LOCK_LOST),
				connection("p1", 15_011, "SUSPENDED"))).violationsOf(Invariant.UNEXPLAINED_FAILURE)).hasSize(1);
	}

	@Test
	void anErrorAfterTheLockWasGrantedIsAViolationEvenWithAFault() {
		CheckReport report = check(List.of(excl("p1", "counter", 0, 10, 1, ERROR), fault("p1", 0, 10, "kill-zk-leader"),
				Operation.of("p2", OpKind.EXCLUSIVE_INCREMENT, "counter", 0, 10, null, ERROR)));
		assertThat(report.violations()).singleElement()
			.satisfies((violation) -> {
				assertThat(violation.invariant()).isEqualTo(Invariant.ERROR_IN_CRITICAL_SECTION);
				assertThat(violation.message()).isEqualTo("p1 failed on 'counter' after its lock was granted");
			});
	}

	@Test
	void anExclusiveGrantAfterAnotherEndedMustHaveAHigherToken() {
		CheckReport report = check(List.of(excl("p1", "counter", 0, 10, 7, OK), excl("p1", "counter", 11, 20, 7, OK),
				excl("p2", "counter", 21, 30, 8, OK)));
		assertThat(report.violationsOf(Invariant.TOKEN_ORDER)).singleElement()
			.satisfies((violation) -> assertThat(violation.message())
				.isEqualTo("p1 was granted 'counter' with token 7 after p1 had ended its grant with token 7"));
		assertThat(report.violationsOf(Invariant.SILENT_TAKEOVER)).isEmpty();
	}

	@Test
	void tokensOrderExclusiveGrantsAfterSharedOnesAndSharedOnesAfterExclusiveOnes() {
		assertThat(check(List.of(shared("p1", "mix", 0, 10, 5, OK), excl("p2", "mix", 11, 20, 5, OK)))
			.violationsOf(Invariant.TOKEN_ORDER)).hasSize(1);
		assertThat(check(List.of(excl("p1", "mix", 0, 10, 5, OK), shared("p2", "mix", 11, 20, 4, OK)))
			.violationsOf(Invariant.TOKEN_ORDER)).hasSize(1);
		assertThat(check(List.of(shared("p1", "mix", 0, 10, 5, OK), shared("p2", "mix", 11, 20, 5, OK),
				excl("p3", "mix", 21, 30, 6, OK), excl("p1", "mix", 31, 40, 6, FENCED), excl("p2", "mix", 41, 50, 7, OK),
				connection("p1", 45, "LOST")))
			.violations()).isEmpty();
	}

	@Test
	void onceTheWorkloadStoppedAcceptedWritesMustBeOkOrInDoubt() {
		List<Operation> operations = List.of(excl("p1", "counter", 0, 10, 1, OK), excl("p2", "counter", 11, 20, 2, LOCK_LOST),
				connection("p2", 15, "SUSPENDED"));
		RegisterState three = new RegisterState("counter", 3, 3, 3, 3, 3, 0, 0);
		assertThat(Checker.check(History.of(operations), List.of(three)).violations()).isEmpty();
		assertThat(Checker.checkStopped(History.of(operations), List.of(three), 1).violationsOf(Invariant.LOST_UPDATE))
			.singleElement()
			.satisfies((violation) -> assertThat(violation.message())
				.isEqualTo("Register 'counter' accepted 3 writes but only 1 increments ended ok and 1 are in doubt"));
		List<Operation> withKill = new java.util.ArrayList<>(operations);
		withKill.add(fault("p1", 30, 40, "kill-app"));
		assertThat(Checker.checkStopped(History.of(withKill), List.of(three), 1).violations()).isEmpty();
	}

	@Test
	void lostUpdatesOfAnUnfencedRegisterAreMeasuredNotViolations() {
		RegisterState unfenced = new RegisterState(RegisterState.unfenced("counter"), 4, 0, 0, 6, 6, 0, 0);
		assertThat(unfenced.isUnfenced()).isTrue();
		assertThat(unfenced.lostUpdates()).isEqualTo(2);
		assertThat(Checker.checkStopped(History.of(List.of()), List.of(unfenced), 1).violations()).isEmpty();
	}

	@Test
	void overlapsAreJudgedOnTheMonotonicClockWhenEveryOperationRecordedIt() {
		// Within the same millisecond on the wall clock, 0.4 ms apart on the monotonic one.
		Operation first = excl("p1", "counter", 0, 10, 1, OK).withNanos(1_000_000, 10_400_000);
		Operation second = excl("p2", "counter", 10, 20, 2, OK).withNanos(10_000_000, 20_000_000);
		assertThat(check(List.of(first, second)).violationsOf(Invariant.EXCLUSION)).singleElement()
			.satisfies((violation) -> assertThat(violation.message()).endsWith("at once for 0.400 ms"));
		// The wall clock stepped back 5 ms between them: they overlap on it, not in fact.
		Operation afterStep = excl("p2", "counter", 5, 15, 2, OK).withNanos(10_500_000, 20_500_000);
		assertThat(check(List.of(first, afterStep)).violations()).isEmpty();
	}

	private static CheckReport check(List<Operation> operations, RegisterState... registers) {
		return Checker.check(History.of(operations), List.of(registers));
	}

}
