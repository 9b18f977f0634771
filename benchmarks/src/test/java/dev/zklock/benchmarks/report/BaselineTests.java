package dev.zklock.benchmarks.report;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.zklock.benchmarks.library.Library;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Baseline}: the rows a workload's figures are divided by.
 */
class BaselineTests {

	private static final Measurement.Load LOAD = new Measurement.Load(LoadAverage.UNKNOWN, LoadAverage.UNKNOWN);

	@Test
	void anotherLibraryIsTheSameCaseWithThatLibrary() {
		Measurement zklock = measurement("zklock", Map.of("lock", "held"));
		Measurement curatorHeld = measurement("curator", Map.of("lock", "held"));
		Measurement curatorFree = measurement("curator", Map.of("lock", "free"));
		Baseline baseline = Baseline.library(Library.CURATOR);
		assertThat(baseline.of(zklock, List.of(curatorFree, zklock, curatorHeld))).contains(curatorHeld);
		assertThat(baseline.isBaseline(curatorFree)).isTrue();
		assertThat(baseline.isBaseline(zklock)).isFalse();
		assertThat(baseline.label((id) -> Library.of(id).label())).isEqualTo("Curator");
	}

	@Test
	void theSameLibraryWithAnotherParameterValue() {
		Measurement withToken = measurement("zklock", Map.of("token", "asked"));
		Measurement withoutToken = measurement("zklock", Map.of("token", "none"));
		Measurement curator = measurement("curator", Map.of("token", "none"));
		Baseline baseline = Baseline.sameLibraryWith("token", "none");
		assertThat(baseline.of(withToken, List.of(curator, withToken, withoutToken))).contains(withoutToken);
		assertThat(baseline.of(withoutToken, List.of(curator, withToken, withoutToken))).contains(withoutToken);
		assertThat(baseline.label((id) -> id)).isEqualTo("token=none");
	}

	private static Measurement measurement(String library, Map<String, String> params) {
		return new Measurement("Bench", "run", library, params, 1, List.of(1.0), List.of(1.0), List.of(1.0), List.of(),
				LOAD);
	}

}
