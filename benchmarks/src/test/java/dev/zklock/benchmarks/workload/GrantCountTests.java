package dev.zklock.benchmarks.workload;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link GrantCount}.
 */
class GrantCountTests {

	@Test
	void aLineReadsBackAsTheSameCount() {
		GrantCount count = new GrantCount("zklock", 4242, 300, 100, 2.0);
		assertThat(GrantCount.parse(count.line())).isEqualTo(count);
	}

	@Test
	void sharesAndCombinedThroughputCountBothJvms() {
		GrantCount count = new GrantCount("curator", 1, 300, 100, 2.0).plus(new GrantCount("curator", 1, 100, 100, 2.0));
		assertThat(count.combinedPerSecond()).isEqualTo(150.0);
		assertThat(count.benchmarkJvmShare()).isEqualTo(2.0 / 3);
	}

	@Test
	void anythingElseIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> GrantCount.parse("cycles=12"));
	}

}
