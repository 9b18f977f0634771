package dev.zklock.benchmarks.report;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link GoalVerdict}: how a ratio with its interval stands against a goal.
 */
class GoalVerdictTests {

	@Test
	void atLeastIsMetOnlyWhenTheWholeIntervalReachesTheGoal() {
		Ratio wellAbove = Ratio.of(List.of(30.0, 32.0, 34.0), List.of(1.0, 1.1, 1.2));
		assertThat(GoalVerdict.atLeast(wellAbove, 20)).isEqualTo(GoalVerdict.MET);
		assertThat(GoalVerdict.atLeast(wellAbove, 30)).isEqualTo(GoalVerdict.UNDECIDED);
		assertThat(GoalVerdict.atLeast(wellAbove, 40)).isEqualTo(GoalVerdict.MISSED);
	}

	@Test
	void overlappingForksAreNoDifferenceForAGoalAboveOne() {
		Ratio overlapping = Ratio.of(List.of(1.0, 1.2, 1.4), List.of(1.1, 1.2, 1.3));
		assertThat(GoalVerdict.atLeast(overlapping, 1.3)).isEqualTo(GoalVerdict.NO_DIFFERENCE);
	}

	@Test
	void aGoalBelowOneIsJudgedOnTheIntervalEvenWhereTheForksOverlap() {
		Ratio closeToTheFloor = Ratio.of(List.of(0.99, 1.0, 1.01), List.of(1.0, 1.01, 1.02));
		assertThat(closeToTheFloor.differs()).isFalse();
		assertThat(GoalVerdict.atLeast(closeToTheFloor, 0.95)).isEqualTo(GoalVerdict.MET);
		Ratio wide = Ratio.of(List.of(0.9, 1.0, 1.1), List.of(0.95, 1.0, 1.05));
		assertThat(GoalVerdict.atLeast(wide, 0.95)).isEqualTo(GoalVerdict.UNDECIDED);
		Ratio below = Ratio.of(List.of(0.8, 0.85, 0.88), List.of(0.95, 1.0, 1.05));
		assertThat(GoalVerdict.atLeast(below, 0.95)).isEqualTo(GoalVerdict.MISSED);
	}

	@Test
	void busySaysWhatTheFiguresAloneWouldAndOneForkGivesNoVerdict() {
		Ratio wellAbove = Ratio.of(List.of(30.0, 32.0), List.of(1.0, 1.1));
		assertThat(GoalVerdict.atLeast(wellAbove, 20).text(true)).startsWith("**busy**")
			.endsWith("(the figures alone: met)");
		assertThat(GoalVerdict.atLeast(Ratio.of(List.of(30.0), List.of(1.0)), 20))
			.isEqualTo(GoalVerdict.ONE_FORK);
	}

	@Test
	void atMostIsMetByOverlappingForksBelowTheGoal() {
		Ratio same = Ratio.of(List.of(1.0, 1.2, 1.4), List.of(1.1, 1.2, 1.3));
		assertThat(GoalVerdict.atMost(same, 2)).isEqualTo(GoalVerdict.MET);
		Ratio slower = Ratio.of(List.of(3.0, 3.2), List.of(1.0, 1.1));
		assertThat(GoalVerdict.atMost(slower, 2)).isEqualTo(GoalVerdict.MISSED);
	}

	@Test
	void everyForkMustReachAShareGoal() {
		assertThat(GoalVerdict.everyAtLeast(Spread.of(List.of(0.41, 0.45, 0.48)), 0.3))
			.isEqualTo(GoalVerdict.MET);
		assertThat(GoalVerdict.everyAtLeast(Spread.of(List.of(0.25, 0.45, 0.48)), 0.3))
			.isEqualTo(GoalVerdict.UNDECIDED);
		assertThat(GoalVerdict.everyAtLeast(Spread.of(List.of(0.1, 0.2, 0.48)), 0.3))
			.isEqualTo(GoalVerdict.MISSED);
	}

}
