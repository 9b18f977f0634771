package dev.zklock.benchmarks.report;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rounds of a run merge into one measurement per case: every round's forks in round order,
 * the loads around the whole, the most that other processes used in any round.
 */
class MeasurementMergeTests {

	private static final LoadAverage QUIET = new LoadAverage(0.5, 0.5, 0.5);

	private static final LoadAverage LATER = new LoadAverage(1.5, 1.0, 0.7);

	@Test
	void roundsOfOneCaseBecomeOneMeasurementWithEveryFork() {
		Measurement first = measurement("zklock", 100, new Measurement.Load(QUIET, QUIET, 0.01));
		Measurement other = measurement("curator", 50, new Measurement.Load(QUIET, QUIET, 0.0));
		Measurement second = measurement("zklock", 140, new Measurement.Load(QUIET, LATER, 0.3));
		Measurement third = measurement("zklock", 120, new Measurement.Load(QUIET, QUIET, Double.NaN));

		List<Measurement> merged = Measurement.merge(List.of(first, other, second, third));

		assertThat(merged).extracting(Measurement::library).containsExactly("zklock", "curator");
		Measurement zklock = merged.get(0);
		assertThat(zklock.throughput()).containsExactly(100.0, 140.0, 120.0);
		assertThat(zklock.p50Micros()).containsExactly(10.0, 14.0, 12.0);
		assertThat(zklock.load().before()).isEqualTo(QUIET);
		assertThat(zklock.load().after()).isEqualTo(QUIET);
		assertThat(zklock.load().otherProcessors()).isEqualTo(0.3);
		assertThat(zklock.load().isBusy(0.25)).isTrue();
		assertThat(merged.get(1).throughput()).containsExactly(50.0);
	}

	private static Measurement measurement(String library, double throughput, Measurement.Load load) {
		return new Measurement("dev.zklock.benchmarks.workload.UncontendedBenchmark", "oneThread", library, Map.of(), 1,
				List.of(throughput), List.of(throughput / 10), List.of(throughput), List.of(), load);
	}

}
