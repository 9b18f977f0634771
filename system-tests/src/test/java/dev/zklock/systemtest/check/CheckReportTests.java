package dev.zklock.systemtest.check;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Outcome;
import dev.zklock.systemtest.register.RegisterState;

import static dev.zklock.systemtest.check.Ops.excl;
import static dev.zklock.systemtest.check.Ops.revoked;
import static dev.zklock.systemtest.check.Ops.tick;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CheckReport}.
 */
class CheckReportTests {

	@Test
	void countsOperationsByKindAndOutcomeAndPrintsEverything() {
		History history = new History(List.of(excl("p1", "counter", 0, 10, 1, Outcome.OK),
				excl("p2", "counter", 10, 20, 2, Outcome.OK), excl("p3", "counter", 25, 30, 3, Outcome.LOCK_LOST),
				Ops.connection("p3", 28, "SUSPENDED"),
				tick("p1", 0, 1, 1), revoked("p1", 5, 1), tick("p2", 40, 41, 2)), List.of("p3.jsonl:7: cut"));
		CheckReport report = Checker.check(history, List.of(new RegisterState("counter", 2, 3, 3, 3, 2, 0, 1)));
		assertThat(report.operations()).isEqualTo(7);
		assertThat(report.count(OpKind.EXCLUSIVE_INCREMENT, Outcome.OK)).isEqualTo(2);
		assertThat(report.count(OpKind.EXCLUSIVE_INCREMENT, Outcome.LOCK_LOST)).isEqualTo(1);
		assertThat(report.count(OpKind.SHARED_READ, Outcome.OK)).isZero();
		assertThat(report.toString()).isEqualTo("""
				Operations: 7 (damaged lines: 1)
				  excl-incr: ok=2 lock-lost=1
				  leader-tick: ok=2
				  leader-revoked: ok=1
				  connection: ok=1
				Damaged lines:
				  p3.jsonl:7: cut
				Registers:
				  counter: value=2 accepted writes=2 rejected=1
				Failovers: 1 (ms: min=39 median=39 max=39)
				  ticker p1#1 -> p2#2: 39 ms (revoked)
				Violations: none
				""");
	}

	@Test
	void printsViolationsWithTheirOperations() {
		CheckReport report = Checker.check(History.of(List.of(excl("p1", "counter", 0, 20, 1, Outcome.OK),
				excl("p2", "counter", 10, 30, 2, Outcome.OK))), List.of());
		assertThat(report.hasViolations()).isTrue();
		assertThat(report.toString()).contains("Violations: 2\n",
				"  [EXCLUSION] 'counter' held by p1 and p2 at once for 10 ms\n"
						+ "      p1 excl-incr counter [0..20] token=1 ok\n"
						+ "      p2 excl-incr counter [10..30] token=2 ok\n",
				"  [SILENT_TAKEOVER] p1 ended ok on 'counter' with token 1 although p2 started with token 2 before it ended");
	}

}
