package dev.zklock.lock.aop;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class WaitTimesTests {

	@Test
	void emptyMeansTheDefault() {
		assertThat(WaitTimes.parse("")).isNull();
		assertThat(WaitTimes.parse("  ")).isNull();
	}

	@Test
	void zeroMeansNoWait() {
		assertThat(WaitTimes.parse("0")).isEqualTo(Duration.ZERO);
		assertThat(WaitTimes.parse("0s")).isEqualTo(Duration.ZERO);
	}

	@Test
	void minusOneMeansForever() {
		assertThat(WaitTimes.parse("-1")).isSameAs(WaitTimes.FOREVER).isNegative();
		assertThat(WaitTimes.parse(" -1 ")).isNegative();
	}

	@Test
	void simpleIsoAndCompositeDurations() {
		assertThat(WaitTimes.parse("500ms")).isEqualTo(Duration.ofMillis(500));
		assertThat(WaitTimes.parse("5s")).isEqualTo(Duration.ofSeconds(5));
		assertThat(WaitTimes.parse("2m")).isEqualTo(Duration.ofMinutes(2));
		assertThat(WaitTimes.parse("PT5S")).isEqualTo(Duration.ofSeconds(5));
		assertThat(WaitTimes.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
		assertThat(WaitTimes.parse("250")).isEqualTo(Duration.ofMillis(250));
	}

	@Test
	void otherTextIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> WaitTimes.parse("five seconds"))
			.withMessage("it is not a duration");
		assertThatIllegalArgumentException().isThrownBy(() -> WaitTimes.parse("5 parsecs"));
		assertThatIllegalArgumentException().isThrownBy(() -> WaitTimes.parse("${orders.wait}"));
	}

	@Test
	void negativeOtherThanMinusOneIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> WaitTimes.parse("-5s"))
			.withMessageContaining("negative");
		assertThatIllegalArgumentException().isThrownBy(() -> WaitTimes.parse("-PT1S"))
			.withMessageContaining("negative");
	}

}
