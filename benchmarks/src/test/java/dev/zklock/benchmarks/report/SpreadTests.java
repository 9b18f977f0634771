package dev.zklock.benchmarks.report;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Spread}.
 */
class SpreadTests {

	@Test
	void medianAndQuartilesInterpolateBetweenValues() {
		Spread spread = Spread.of(List.of(4.0, 1.0, 3.0, 2.0));
		assertThat(spread.median()).isEqualTo(2.5);
		assertThat(spread.p25()).isEqualTo(1.75);
		assertThat(spread.p75()).isEqualTo(3.25);
		assertThat(spread.min()).isEqualTo(1.0);
		assertThat(spread.max()).isEqualTo(4.0);
		assertThat(spread.count()).isEqualTo(4);
	}

	@Test
	void oneValueIsItsOwnMedianAndQuartiles() {
		Spread spread = Spread.of(List.of(7.0));
		assertThat(spread).isEqualTo(new Spread(7.0, 7.0, 7.0, 7.0, 7.0, 1));
		assertThat(spread.format()).isEqualTo("7.00");
	}

	@Test
	void formatShowsTheMedianWithTheLeastAndGreatestInBrackets() {
		assertThat(Spread.of(List.of(1000.0, 1200.0, 1500.0)).format()).isEqualTo("1,200 (1,000–1,500)");
	}

	@Test
	void formatQuartilesShowsTheMedianWithTheQuartilesInBrackets() {
		assertThat(Spread.of(List.of(1000.0, 1200.0, 1500.0)).formatQuartiles()).isEqualTo("1,200 (1,100–1,350)");
	}

	@Test
	void rangesOverlapWhenTheyShareAValue() {
		assertThat(Spread.of(List.of(1.0, 3.0)).overlaps(Spread.of(List.of(3.0, 5.0)))).isTrue();
		assertThat(Spread.of(List.of(1.0, 3.0)).overlaps(Spread.of(List.of(3.5, 5.0)))).isFalse();
		assertThat(Spread.of(List.of(3.5, 5.0)).overlaps(Spread.of(List.of(1.0, 3.0)))).isFalse();
	}

	@Test
	void numbersKeepThreeSignificantDigitsAndNoDecimalsFromAHundredUp() {
		assertThat(Spread.number(12345.6)).isEqualTo("12,346");
		assertThat(Spread.number(123.4)).isEqualTo("123");
		assertThat(Spread.number(12.34)).isEqualTo("12.3");
		assertThat(Spread.number(1.234)).isEqualTo("1.23");
		assertThat(Spread.number(0.01234)).isEqualTo("0.0123");
		assertThat(Spread.number(Double.NaN)).isEqualTo("n/a");
	}

	@Test
	void noValuesIsAnError() {
		assertThatIllegalArgumentException().isThrownBy(() -> Spread.of(List.of()));
	}

}
