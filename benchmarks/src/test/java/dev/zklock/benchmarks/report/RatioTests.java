package dev.zklock.benchmarks.report;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Ratio}.
 */
class RatioTests {

	@Test
	void separateForksGiveARatioWithItsInterval() {
		Ratio ratio = Ratio.of(List.of(200.0, 210.0, 220.0), List.of(100.0, 105.0, 110.0));
		assertThat(ratio.median()).isEqualTo(2.0);
		assertThat(ratio.low()).isEqualTo(200.0 / 110.0);
		assertThat(ratio.high()).isEqualTo(2.2);
		assertThat(ratio.differs()).isTrue();
		assertThat(ratio.format()).isEqualTo("2.00× (1.82–2.20×)");
	}

	@Test
	void overlappingForksAreNoDifference() {
		Ratio ratio = Ratio.of(List.of(429.0, 273.0, 502.0), List.of(813.0, 480.0, 850.0));
		assertThat(ratio.differs()).isFalse();
		assertThat(ratio.format()).startsWith("no difference: 0.53× (");
	}

	@Test
	void oneForkHasNoInterval() {
		Ratio ratio = Ratio.of(List.of(300.0), List.of(100.0));
		assertThat(ratio.hasInterval()).isFalse();
		assertThat(ratio.differs()).isFalse();
		assertThat(ratio.within(0, 100)).isFalse();
		assertThat(ratio.format()).isEqualTo("3.00× (one fork: no interval)");
	}

	@Test
	void withinHoldsOnlyForTheWholeInterval() {
		Ratio close = Ratio.of(List.of(100.0, 101.0), List.of(99.0, 100.0));
		assertThat(close.within(0.95, 1.05)).isTrue();
		Ratio wide = Ratio.of(List.of(100.0, 120.0), List.of(99.0, 100.0));
		assertThat(wide.within(0.95, 1.05)).isFalse();
	}

}
