package dev.zklock.systemtest.check;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the {@link Checker} on {@link Invariant#COMPONENT_EXCLUSION}, with hand-made
 * histories.
 */
class ComponentInvariantsTests {

	@Test
	void successiveComponentsOfTwoProcessesHaveNoViolation() {
		CheckReport report = check(run("p1", 0, 50, 1), run("p1", 50, 100, 1), run("p1", 100, 120, 1),
				run("p2", 130, 180, 2), run("p2", 180, 230, 2));
		assertThat(report.violations()).isEmpty();
	}

	@Test
	void componentsOfTwoProcessesRunningAtOnceAreAViolation() {
		CheckReport report = check(run("p1", 0, 50, 1), run("p1", 50, 100, 1), run("p2", 90, 140, 2));
		assertThat(report.violationsOf(Invariant.COMPONENT_EXCLUSION)).singleElement()
			.satisfies((violation) -> assertThat(violation.message())
				.isEqualTo("the component of 'feed' ran in p1 and p2 at once for 10 ms"));
	}

	@Test
	void anIntervalOfAFrozenProcessWhoseLeadershipEndedIsExcused() {
		Operation frozen = Operation.of("p1", OpKind.COMPONENT_RUN, "feed", 50, 5000, 1L, Outcome.LOCK_LOST);
		CheckReport report = check(run("p1", 0, 50, 1), frozen, run("p2", 3000, 3050, 2));
		assertThat(report.violations()).isEmpty();
	}

	@Test
	void groupsAreIndependent() {
		Operation other = Operation.of("p2", OpKind.COMPONENT_RUN, "other", 10, 60, 2L, Outcome.OK);
		assertThat(check(run("p1", 0, 50, 1), other).violations()).isEmpty();
	}

	private static Operation run(String process, long start, long end, long epoch) {
		return Operation.of(process, OpKind.COMPONENT_RUN, "feed", start, end, epoch, Outcome.OK);
	}

	private static CheckReport check(Operation... operations) {
		return Checker.check(History.of(List.of(operations)), List.of());
	}

}
