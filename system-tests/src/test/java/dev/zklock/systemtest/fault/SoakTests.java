package dev.zklock.systemtest.fault;

import java.time.Duration;

import dev.zklock.systemtest.check.CheckReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import org.springframework.boot.convert.DurationStyle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The long fault-injection run: a random schedule of faults for {@value #DURATION_PROPERTY}
 * ({@code 30m} in the {@code soak} profile), its seed printed and replayable with
 * {@value FaultRun#SEED_PROPERTY}. It runs only when the duration is given. The figures go to
 * {@code target/system-tests/soak-*}/summary.txt.
 */
@EnabledIfSystemProperty(named = SoakTests.DURATION_PROPERTY, matches = ".+")
class SoakTests {

	static final String DURATION_PROPERTY = "zklock.soak.duration";

	@Test
	void randomScheduleOfFaultsForTheSoakDuration() {
		Duration duration = DurationStyle.detectAndParse(System.getProperty(DURATION_PROPERTY));
		long seed = FaultRun.seed();
		System.out.println("[run] soak: " + duration + ", seed " + seed);
		try (FaultRun run = FaultRun.start("soak", true)) {
			run.run(new NemesisSchedule(seed, run.cluster().apps().size(), run.cluster().network().isPresent()),
					duration);
			RunSummary summary = run.finish(seed);
			CheckReport report = summary.report();
			assertThat(report.violations()).as("invariant violations (seed %d); report:%n%s", seed, summary).isEmpty();
			assertThat(summary.staleTicks()).as("ticks of an old leader after the new leader's first tick").isEmpty();
			long kills = summary.faultCounts().getOrDefault(Nemesis.KILL_APP, 0L);
			assertThat(report.damagedLines()).as("history lines damaged, at most one per kill")
				.hasSizeLessThanOrEqualTo((int) kills);
		}
	}

}
