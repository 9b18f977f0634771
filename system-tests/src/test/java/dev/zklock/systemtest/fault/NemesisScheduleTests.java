package dev.zklock.systemtest.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import dev.zklock.systemtest.fault.NemesisSchedule.Overlap;
import dev.zklock.systemtest.fault.NemesisSchedule.Step;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link NemesisSchedule}.
 */
class NemesisScheduleTests {

	@Test
	void aSeedReplaysTheSameSchedule() {
		assertThat(draw(42, 200)).isEqualTo(draw(42, 200)).isNotEqualTo(draw(43, 200));
	}

	@Test
	void everyKindOfFaultIsDrawnAndOverlappingPairsKeepTheQuorumAndPauseOneHolderAtMost() {
		List<Step> steps = draw(7, 1000);
		Set<Nemesis> drawn = EnumSet.noneOf(Nemesis.class);
		int pairs = 0;
		for (Step step : steps) {
			drawn.add(step.nemesis());
			Overlap overlap = step.overlap();
			if (overlap == null) {
				continue;
			}
			pairs++;
			Nemesis second = overlap.step().nemesis();
			drawn.add(second);
			assertThat(step.nemesis().targetsServer() && second.targetsServer()).as("two servers at once in %s", step)
				.isFalse();
			assertThat(step.nemesis() == Nemesis.PAUSE_HOLDER && second == Nemesis.PAUSE_HOLDER).isFalse();
			assertThat(overlap.offset()).isLessThanOrEqualTo(step.duration()).isLessThanOrEqualTo(Duration.ofSeconds(3));
			assertThat(overlap.step().overlap()).isNull();
		}
		assertThat(drawn).containsExactlyInAnyOrder(Nemesis.values());
		assertThat(pairs).isBetween(250, 420);
		assertThat(steps).filteredOn((step) -> step.nemesis() == Nemesis.SLOW_APP)
			.allSatisfy((step) -> assertThat(step.delay()).isBetween(Duration.ofMillis(100), Duration.ofMillis(1500)));
	}

	private static List<Step> draw(long seed, int count) {
		NemesisSchedule schedule = new NemesisSchedule(seed, 3);
		List<Step> steps = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			steps.add(schedule.next());
		}
		return steps;
	}

}
