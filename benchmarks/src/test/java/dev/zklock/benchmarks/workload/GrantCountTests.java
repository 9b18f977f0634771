package dev.zklock.benchmarks.workload;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link GrantCount}.
 */
class GrantCountTests {

	private static final String BENCHMARK = TwoProcessesFencedBenchmark.class.getName();

	@Test
	void aLineReadsBackAsTheSameCount() {
		GrantCount count = new GrantCount(BENCHMARK, "zklock", 4242, 300, 100, 2.0, 120_000_000, 95_000_000);
		assertThat(GrantCount.parse(count.line())).isEqualTo(count);
	}

	@Test
	void sharesAndCombinedThroughputCountBothJvms() {
		GrantCount count = new GrantCount(BENCHMARK, "curator", 1, 300, 100, 2.0, 5_000_000, 7_000_000)
			.plus(new GrantCount(BENCHMARK, "curator", 1, 100, 100, 2.0, 9_000_000, 2_000_000));
		assertThat(count.combinedPerSecond()).isEqualTo(150.0);
		assertThat(count.benchmarkJvmShare()).isEqualTo(2.0 / 3);
		assertThat(count.smallerShare()).isCloseTo(1.0 / 3, within(1e-9));
		assertThat(count.longestGapMillis()).as("the longest gap of either JVM in either count").isEqualTo(9.0);
	}

	@Test
	void anythingElseIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> GrantCount.parse("cycles=12"));
		assertThatIllegalArgumentException().as("a line without its benchmark")
			.isThrownBy(() -> GrantCount.parse("zklock 4242 300 100 2.000000 120000000 95000000"));
	}

}
