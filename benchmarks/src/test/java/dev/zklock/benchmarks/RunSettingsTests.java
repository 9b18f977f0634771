package dev.zklock.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RunSettings}.
 */
class RunSettingsTests {

	@Test
	void fullProfileIsTheDefaultAndRunsBothSetupsWithSyncedWrites() {
		RunSettings settings = RunSettings.of(Map.of());
		assertThat(settings.profile()).isEqualTo("full");
		assertThat(settings.setups()).containsExactly(ZooKeeperSetup.STANDALONE, ZooKeeperSetup.ENSEMBLE);
		assertThat(settings.forceSync()).isTrue();
		assertThat(settings.forks()).isGreaterThanOrEqualTo(3);
		assertThat(settings.failoverRepetitions()).isGreaterThanOrEqualTo(10);
		assertThat(settings.ensembleServer()).isEqualTo("follower");
		assertThat(settings.busyProcessors()).isEqualTo(0.25);
		assertThat(settings.libraries()).isEmpty();
		assertThat(settings.tickTime()).isEqualTo(2000);
		assertThat(settings.output()).isEqualTo(Path.of("docs/BENCHMARKS.md"));
	}

	@Test
	void givenValuesWinOverTheProfile() {
		RunSettings settings = RunSettings.of(Map.of("profile", "smoke", "forks", "3", "iterationTime", "1500ms",
				"setups", "ensemble", "forceSync", "no", "library", "curator, zklock", "busyProcessors", "0.5"));
		assertThat(settings.libraries()).containsExactly("curator", "zklock");
		assertThat(settings.busyProcessors()).isEqualTo(0.5);
		assertThat(settings.forks()).isEqualTo(3);
		assertThat(settings.iterationTime()).isEqualTo(Duration.ofMillis(1500));
		assertThat(settings.setups()).isEqualTo(List.of(ZooKeeperSetup.ENSEMBLE));
		assertThat(settings.forceSync()).isFalse();
		assertThat(settings.warmupTime()).isEqualTo(Duration.ofMillis(200));
	}

	@Test
	void unknownSettingsAndProfilesAreRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> RunSettings.of(Map.of("fork", "3")))
			.withMessageContaining("bench.fork");
		assertThatIllegalArgumentException().isThrownBy(() -> RunSettings.of(Map.of("profile", "quick")))
			.withMessageContaining("quick");
		assertThatIllegalArgumentException().isThrownBy(() -> RunSettings.of(Map.of("forks", "two")).forks())
			.withMessageContaining("bench.forks");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RunSettings.of(Map.of("ensembleServer", "observer")).ensembleServer())
			.withMessageContaining("bench.ensembleServer");
	}

}
