package dev.zklock.benchmarks.workload;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link UncontendedInTurns}: the figures a fork prints, read back.
 */
class UncontendedInTurnsTests {

	@Test
	void aForksLinesAreReadBack() {
		UncontendedInTurns.Fork fork = UncontendedInTurns.parse("""
				some log line
				side floor 1021 1501228712 490000000 234053629 9515888 1146529 6842881 1.000000 1.000000 1.000000
				side zklock 766 1502714899 560000000 -1 12148624 1468083 9766213 0.766282 0.671383 0.824891
				side shape-two-multis-sync 990 1500000000 500000000 1000 9000000 1200000 7000000 0.970000 0.9 1.1
				done
				""");

		assertThat(fork.floor()).isEqualTo(new UncontendedInTurns.Side("floor", 1021, 1501228712L, 490000000L,
				234053629L, 9515888L, 1146529L, 6842881L, 1, 1, 1));
		assertThat(fork.sides()).extracting(UncontendedInTurns.Side::library)
			.containsExactly("floor", "zklock", "shape-two-multis-sync");
		assertThat(fork.side("shape-two-multis-sync")).get()
			.extracting(UncontendedInTurns.Side::turnRatio)
			.isEqualTo(0.97);
		assertThat(fork.zkLock().library()).isEqualTo("zklock");
		assertThat(fork.zkLock().compilerNanos()).isEqualTo(-1);
		assertThat(fork.zkLock().cpuWithoutCompilerPerCall()).isNaN();
		assertThat(fork.throughputRatio()).isEqualTo(0.766282);
		assertThat(fork.zkLock().leastTurnRatio()).isEqualTo(0.671383);
		assertThat(fork.zkLock().greatestTurnRatio()).isEqualTo(0.824891);
		assertThat(fork.p99Ratio()).isEqualTo(9766213.0 / 6842881);
	}

	@Test
	void aForkWithoutFiguresIsAnError() {
		assertThatIllegalStateException().isThrownBy(() -> UncontendedInTurns.parse("Exception in thread main\n"))
			.withMessageContaining("printed no figures");
		assertThatIllegalStateException().isThrownBy(() -> UncontendedInTurns.parse(
				"side zklock 766 1502714899 560000000 -1 12148624 1468083 9766213 0.766282 0.671383 0.824891\n"))
			.withMessageContaining("printed no figures");
	}

}
