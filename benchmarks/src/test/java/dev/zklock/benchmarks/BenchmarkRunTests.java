package dev.zklock.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.zklock.benchmarks.library.Election;
import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.report.Measurement;
import dev.zklock.benchmarks.report.ReportWriter;
import dev.zklock.benchmarks.report.RunReport;
import dev.zklock.benchmarks.report.SetupReport;
import dev.zklock.benchmarks.report.TurnsReport;
import dev.zklock.benchmarks.workload.GrantCount;
import dev.zklock.benchmarks.workload.LeaderFailover;
import dev.zklock.benchmarks.workload.RequestsPerCycle;
import dev.zklock.benchmarks.workload.RequestsPerCycle.Kind;
import dev.zklock.benchmarks.workload.TwoProcessesBenchmark;
import dev.zklock.benchmarks.workload.TwoProcessesFencedBenchmark;
import dev.zklock.benchmarks.workload.UncontendedInTurns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Smoke run of the whole benchmark set against a standalone server, with the tiny settings of
 * the {@code test} profile, so that the benchmarks never rot. Nothing here judges speed: it
 * checks that every benchmark ran and produced figures, that the request counting counts, and
 * that the report is written.
 */
class BenchmarkRunTests {

	@Test
	void everyWorkloadRunsAndTheReportIsWritten(@TempDir Path folder) throws Exception {
		Path output = folder.resolve("BENCHMARKS.md");
		RunSettings settings = RunSettings.of(Map.of("profile", "test", "output", output.toString(), "command",
				"./mvnw -pl benchmarks -am verify"));
		RunReport report = new BenchmarkRun(settings).run();
		ReportWriter.write(report, output);

		assertThat(report.setups()).hasSize(1);
		SetupReport standalone = report.setups().get(0);
		assertThat(standalone.measurements()).extracting(BenchmarkRunTests::describe)
			.containsExactlyInAnyOrder("UncontendedBenchmark.oneThread floor {}",
					"UncontendedBenchmark.oneThread curator {}",
					"UncontendedBenchmark.oneThread spring-integration {}",
					"UncontendedBenchmark.oneThread zklock {}",
					"UncontendedBenchmark.oneThread zklock-per-call {}",
					"UncontendedBenchmark.oneThread zklock-keep {}",
					"UncontendedBenchmark.oneThread zklocked {}",
					"UncontendedBenchmark.oneThread shape-event-thread {}",
					"UncontendedBenchmark.oneThread shape-caller-waits {}",
					"UncontendedBenchmark.oneThread shape-two-multis {}",
					"UncontendedBenchmark.oneThread shape-two-multis-handle {}",
					"UncontendedBenchmark.oneThread shape-two-multis-sync {}",
					"FirstUseBenchmark.oneThread curator {}",
					"FirstUseBenchmark.oneThread zklock {}",
					"KeptKeyTakenBenchmark.oneThread zklock-keep {key=kept}",
					"KeptKeyTakenBenchmark.oneThread zklock-keep {key=free}",
					"SkipIfLockedBenchmark.oneThread shedlock {lock=free}",
					"SkipIfLockedBenchmark.oneThread curator {lock=free}",
					"SkipIfLockedBenchmark.oneThread zklock {lock=free}",
					"SkipIfLockedBenchmark.oneThread shedlock {lock=held}",
					"SkipIfLockedBenchmark.oneThread curator {lock=held}",
					"SkipIfLockedBenchmark.oneThread zklock {lock=held}",
					"OneKeyContendedBenchmark.eightThreads curator {}",
					"OneKeyContendedBenchmark.eightThreads spring-integration {}",
					"OneKeyContendedBenchmark.eightThreads zklock {}",
					"OneKeyContendedBenchmark.eightThreads zklock-per-call {}",
					"OneKeyContendedBenchmark.thirtyTwoThreads curator {}",
					"OneKeyContendedBenchmark.thirtyTwoThreads spring-integration {}",
					"OneKeyContendedBenchmark.thirtyTwoThreads zklock {}",
					"OneKeyContendedBenchmark.thirtyTwoThreads zklock-per-call {}",
					"AsyncOneKeyBenchmark.batchOfCalls zklock {form=async}",
					"AsyncOneKeyBenchmark.batchOfCalls zklock {form=sync}",
					"OneKeyFencedBenchmark.thirtyTwoThreads curator {}",
					"OneKeyFencedBenchmark.thirtyTwoThreads curator-per-thread {}",
					"OneKeyFencedBenchmark.thirtyTwoThreads zklock {}",
					"DistinctKeysBenchmark.eightThreads floor {}",
					"DistinctKeysBenchmark.eightThreads curator {}",
					"DistinctKeysBenchmark.eightThreads spring-integration {}",
					"DistinctKeysBenchmark.eightThreads zklock {}",
					"DistinctKeysBenchmark.eightThreads shape-event-thread {}",
					"DistinctKeysBenchmark.eightThreads shape-two-multis {}",
					"DistinctKeysBenchmark.thirtyTwoThreads floor {}",
					"DistinctKeysBenchmark.thirtyTwoThreads curator {}",
					"DistinctKeysBenchmark.thirtyTwoThreads spring-integration {}",
					"DistinctKeysBenchmark.thirtyTwoThreads zklock {}",
					"DistinctKeysBenchmark.thirtyTwoThreads shape-event-thread {}",
					"DistinctKeysBenchmark.thirtyTwoThreads shape-two-multis {}",
					"TwoProcessesBenchmark.eightThreadsEach curator {}",
					"TwoProcessesBenchmark.eightThreadsEach curator-per-thread {}",
					"TwoProcessesBenchmark.eightThreadsEach spring-integration {}",
					"TwoProcessesBenchmark.eightThreadsEach zklock {}",
					"TwoProcessesFencedBenchmark.eightThreadsEach curator {}",
					"TwoProcessesFencedBenchmark.eightThreadsEach curator-per-thread {}",
					"TwoProcessesFencedBenchmark.eightThreadsEach zklock {}",
					"SharedBenchmark.eightThreads curator {}",
					"SharedBenchmark.eightThreads zklock {}",
					"LeaderCheckBenchmark.call curator {guard=inline, role=leader}",
					"LeaderCheckBenchmark.call zkleader {guard=inline, role=leader}",
					"LeaderCheckBenchmark.call curator {guard=inline, role=non-leader}",
					"LeaderCheckBenchmark.call zkleader {guard=inline, role=non-leader}",
					"LeaderCheckBenchmark.call curator {guard=proxied, role=leader}",
					"LeaderCheckBenchmark.call zkleader {guard=proxied, role=leader}",
					"LeaderCheckBenchmark.call curator {guard=proxied, role=non-leader}",
					"LeaderCheckBenchmark.call zkleader {guard=proxied, role=non-leader}");
		int forks = Math.max(1, settings.forks());
		assertThat(standalone.measurements()).allSatisfy((measurement) -> {
			if (measurement.method().equals("call")) {
				assertThat(measurement.averageNanos()).hasSize(forks)
					.allSatisfy((value) -> assertThat(value).isPositive());
				assertThat(measurement.throughput()).isEmpty();
			}
			else {
				assertThat(measurement.throughput()).hasSize(forks)
					.allSatisfy((value) -> assertThat(value).isPositive());
				assertThat(measurement.p50Micros()).allSatisfy((value) -> assertThat(value).isPositive());
				assertThat(measurement.p99Micros()).allSatisfy((value) -> assertThat(value).isPositive());
			}
			assertThat(measurement.cpuNanos()).as("CPU per operation of %s", describe(measurement))
				.hasSize(forks)
				.allSatisfy((value) -> assertThat(value).isPositive());
			assertThat(measurement.allocatedBytes()).as("bytes per operation of %s", describe(measurement))
				.hasSize(forks)
				.allSatisfy((value) -> assertThat(value).isPositive());
		});

		assertThat(standalone.measurements()).allSatisfy((measurement) -> {
			assertThat(measurement.load().before().one()).isNotNaN();
			assertThat(measurement.load().after().one()).isNotNaN();
			assertThat(measurement.load().otherProcessors()).as("processors used by other processes").isNotNaN();
		});

		Tuple[] twoJvmRows = Stream
			.concat(grants(TwoProcessesBenchmark.class, "curator", "curator-per-thread", "spring-integration", "zklock"),
					grants(TwoProcessesFencedBenchmark.class, "curator", "curator-per-thread", "zklock"))
			.toArray(Tuple[]::new);
		assertThat(standalone.grants()).extracting(GrantCount::benchmark, GrantCount::library)
			.containsOnly(twoJvmRows)
			.contains(twoJvmRows);
		assertThat(standalone.grants()).allSatisfy((count) -> {
			assertThat(count.benchmarkJvm()).as("grants to the benchmark JVM").isPositive();
			assertThat(count.otherJvm()).as("grants to the second JVM").isNotNegative();
			assertThat(count.seconds()).isPositive();
			assertThat(count.benchmarkJvmLongestGapNanos()).as("longest gap of the benchmark JVM").isPositive();
			assertThat(count.otherJvmLongestGapNanos()).as("longest gap of the second JVM").isNotNegative();
		});

		assertThat(standalone.requests()).extracting(RequestsPerCycle.Count::subject)
			.containsExactlyElementsOf(RequestsPerCycle.CASES);
		assertThat(count(standalone.requests(), Library.FLOOR, Kind.EXCLUSIVE)).as("the floor: create and delete")
			.isEqualTo(new double[] { 2, 2 });
		assertThat(count(standalone.requests(), Library.SHEDLOCK, Kind.SKIP_IF_HELD))
			.as("ShedLock skipping a held lock: one read").isEqualTo(new double[] { 1, 0 });
		assertThat(standalone.requests()).filteredOn((count) -> count.subject().library() != Library.ZKLOCK_KEEP)
			.allSatisfy((count) -> assertThat(count.requests()).isGreaterThanOrEqualTo(1));
		assertThat(count(standalone.requests(), Library.ZKLOCK_KEEP, Kind.EXCLUSIVE)[0])
			.as("zklock reusing a kept lock: fewer requests than a node per call")
			.isLessThan(count(standalone.requests(), Library.ZKLOCK_PER_CALL, Kind.EXCLUSIVE)[0]);
		assertThat(count(standalone.requests(), Library.ZKLOCK, Kind.FIRST_USE)[1])
			.as("zklock's first use of a key writes").isGreaterThanOrEqualTo(1);

		assertThat(standalone.failovers()).extracting(LeaderFailover.Result::election, LeaderFailover.Result::shutdown)
			.containsExactly(tuple(Election.CURATOR, LeaderFailover.Shutdown.GRACEFUL),
					tuple(Election.CURATOR, LeaderFailover.Shutdown.KILL),
					tuple(Election.ZKLEADER, LeaderFailover.Shutdown.GRACEFUL),
					tuple(Election.ZKLEADER, LeaderFailover.Shutdown.KILL));
		assertThat(standalone.failovers()).allSatisfy((result) -> {
			assertThat(result.millis()).hasSize(1).allSatisfy((millis) -> assertThat(millis).isPositive());
			assertThat(result.sessionTimeoutMillis()).isEqualTo(1000);
		});

		assertThat(standalone.turns()).extracting(TurnsReport::threads).containsExactly(1, 4);
		assertThat(standalone.turns()).allSatisfy((turns) -> assertThat(turns.forks()).as("the forks of workload 1i")
			.hasSize(forks)
			.allSatisfy((fork) -> {
				assertThat(fork.sides()).extracting(UncontendedInTurns.Side::library)
					.containsExactly("floor", "zklock", "shape-two-multis-sync", "shape-two-multis-named");
				assertThat(fork.sides()).allSatisfy((side) -> {
					assertThat(side.calls()).isPositive();
					assertThat(side.turnRatio()).isPositive();
					assertThat(side.bytesPerCall()).isPositive();
				});
			}));

		String markdown = Files.readString(output);
		assertThat(markdown).contains("# zklock benchmarks", "**test run.**", "## Machine", "## ZooKeeper",
				"forceSync=yes", "## Expectations", "## Results: standalone server", "#### 1. Uncontended",
				"#### 1s. Scheduled job",
				"#### 1i. The uncontended call and the floor in turns", "The throughput goal is set against the floor.",
				"#### 3i. 4 threads, a key each, in turns with the floor at as many threads", "#### 1f. First use of a key",
				"#### 1k. Another instance takes a key",
				"#### 2. One key", "#### 2t. One key, 32 threads in one JVM, every holder asks",
				"## Goals of the instance-owned lock", "PER_CALL: node per call", "keep idle 1 s",
				"LockSettings[handoff=", "longest gap between two grants of one JVM (ms)", "against the bound", "#### 3. Distinct keys", "#### 4. One key, two JVMs",
				"#### 4t. One key, two JVMs of 8 threads each, every holder asks",
				"## Goals of fenced locks", "Curator (a mutex per thread)", "## Goals of the uncontended call",
				"CPU per op (µs)", "allocated per op (B)", "allocated per call ≤",
				"#### 5. SHARED", "#### 6. The leader-only check", "#### 7. ZooKeeper requests",
				"#### 8. Leader failover",
				"`./mvnw -pl benchmarks -am verify`", "- Commit: `", "- JDK: ", "Curator 5.", "ZooKeeper 3.",
				"both JVMs (grants/s)", "load 1 min, before → after", "÷ session timeout");
		assertThat(markdown).doesNotContain("n/a", "no baseline");
	}

	@Test
	void tlsAgainstPlaintextOnTheSameServerConfiguration(@TempDir Path folder) throws Exception {
		Path output = folder.resolve("BENCHMARKS-tls.md");
		RunSettings settings = RunSettings.of(Map.of("profile", "test", "output", output.toString(), "command",
				"./mvnw -pl benchmarks -am verify", "setups", "standalone-netty,standalone-tls", "include",
				"dev\\.zklock\\.benchmarks\\.workload\\.UncontendedBenchmark\\..*", "library", "curator,zklock",
				"requestCycles", "0", "failoverRepetitions", "0", "turns", "0"));
		RunReport report = new BenchmarkRun(settings).run();
		ReportWriter.write(report, output);

		assertThat(report.setups()).extracting(SetupReport::setup)
			.containsExactly(ZooKeeperSetup.STANDALONE_NETTY, ZooKeeperSetup.STANDALONE_TLS);
		assertThat(report.setups()).allSatisfy((setup) -> assertThat(setup.measurements())
			.extracting(BenchmarkRunTests::describe)
			.containsExactlyInAnyOrder("UncontendedBenchmark.oneThread curator {}",
					"UncontendedBenchmark.oneThread zklock {}"));
		assertThat(report.setups().get(1).target()).contains("over TLS");
		assertThat(report.setups().get(0).target()).doesNotContain("TLS");
		String text = Files.readString(output);
		assertThat(text).contains("## TLS against plaintext")
			.contains("| UncontendedBenchmark.oneThread | curator |")
			.contains("| UncontendedBenchmark.oneThread | zklock |");
		assertThat(System.getProperty("zklock-benchmarks.tls-trust-store")).as("cleared after the run").isNull();
	}

	private static String describe(Measurement measurement) {
		String benchmark = measurement.benchmark();
		return benchmark.substring(benchmark.lastIndexOf('.') + 1) + "." + measurement.method() + " "
				+ measurement.library() + " " + measurement.params();
	}

	private static Stream<Tuple> grants(Class<?> benchmark, String... libraries) {
		return Arrays.stream(libraries).map((library) -> tuple(benchmark.getName(), library));
	}

	private static double[] count(List<RequestsPerCycle.Count> counts, Library library, Kind kind) {
		RequestsPerCycle.Count count = counts.stream()
			.filter((candidate) -> candidate.subject().equals(new RequestsPerCycle.Case(library, kind)))
			.findFirst()
			.orElseThrow();
		return new double[] { count.requests(), count.writes() };
	}

}
