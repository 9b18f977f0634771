package dev.zklock.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import dev.zklock.benchmarks.library.CuratorClients;
import dev.zklock.benchmarks.library.Election;
import dev.zklock.benchmarks.report.CpuAccount;
import dev.zklock.benchmarks.report.LoadAverage;
import dev.zklock.benchmarks.report.LoadRecorder;
import dev.zklock.benchmarks.report.Machine;
import dev.zklock.benchmarks.report.Measurement;
import dev.zklock.benchmarks.report.Provenance;
import dev.zklock.benchmarks.report.ReportWriter;
import dev.zklock.benchmarks.report.RunReport;
import dev.zklock.benchmarks.report.ServerDescription;
import dev.zklock.benchmarks.report.SetupReport;
import dev.zklock.benchmarks.report.TurnsReport;
import dev.zklock.benchmarks.workload.GrantCount;
import dev.zklock.benchmarks.workload.LeaderFailover;
import dev.zklock.benchmarks.workload.ProcessCpuProfiler;
import dev.zklock.benchmarks.workload.RequestsPerCycle;
import dev.zklock.benchmarks.workload.UncontendedInTurns;
import dev.zklock.benchmarks.workload.ZooKeeperTarget;
import dev.zklock.test.ZooKeeperEnsemble;

/**
 * Runs the whole benchmark set against each ZooKeeper setup in turn and writes the report:
 * the requests per lock cycle (standalone server only), the JMH workloads, the uncontended call
 * and the floor in turns, then the leader failovers. Settings come from {@code bench.*} system
 * properties (see {@link RunSettings}).
 */
public final class BenchmarkRun {

	/** The JVM options of the JMH benchmark JVMs. */
	static final List<String> BENCHMARK_JVM_ARGS = List.of("-Xms1g", "-Xmx1g");

	private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

	private final RunSettings settings;

	/**
	 * Prepare a run.
	 * @param settings its settings
	 */
	public BenchmarkRun(RunSettings settings) {
		this.settings = settings;
	}

	/**
	 * Run the benchmarks with the settings of the {@code bench.*} system properties.
	 * @param args none
	 * @throws Exception if the run fails
	 */
	public static void main(String[] args) throws Exception {
		RunSettings settings = RunSettings.fromSystemProperties();
		RunReport report = new BenchmarkRun(settings).run();
		Path output = settings.output();
		ReportWriter.write(report, output);
		log("Wrote " + output.toAbsolutePath());
		System.exit(0);
	}

	/**
	 * Run every setup.
	 * @return what was measured
	 * @throws Exception if a benchmark or a server fails
	 */
	public RunReport run() throws Exception {
		Instant started = Instant.now();
		LoadAverage loadBefore = LoadAverage.read();
		Provenance provenance = Provenance.read();
		log("Measuring " + provenance.commit() + " on " + Machine.describe().jdk() + "; load average "
				+ loadBefore.format());
		List<SetupReport> setups = new ArrayList<>();
		for (ZooKeeperSetup setup : this.settings.setups()) {
			setups.add(run(setup));
		}
		return new RunReport(this.settings, provenance, Machine.describe(), BENCHMARK_JVM_ARGS, started,
				Duration.between(started, Instant.now()), loadBefore, LoadAverage.read(), setups);
	}

	private SetupReport run(ZooKeeperSetup setup) throws Exception {
		log("Starting the " + setup.label());
		TlsMaterial tls = setup.needsTls() ? TlsMaterial.create(
				Files.createDirectories(this.settings.logs()).resolve("tls-" + setup.id())) : null;
		List<String> clientArgs = (setup.transport() == ZooKeeperSetup.Transport.TLS && tls != null)
				? tls.clientJvmArgs() : List.of();
		try (ZooKeeperEnsemble servers = setup.start(this.settings.tickTime(), this.settings.forceSync(), tls)) {
			setClientProperties(clientArgs);
			ServerDescription description = ServerDescription.of(servers);
			PinnedServer pinned = PinnedServer.choose(servers, this.settings.ensembleServer(), !clientArgs.isEmpty());
			log("Every client connects to " + pinned.connectString() + " (" + pinned.roleAtStart() + ")");
			List<RequestsPerCycle.Count> requests = List.of();
			if (setup == ZooKeeperSetup.STANDALONE && this.settings.requestCycles() > 0) {
				log("Counting requests per lock cycle (workload 7)");
				requests = RequestsPerCycle.measure(servers.connectString(), servers.clientPort(1),
						this.settings.requestCycles());
			}
			Path grantsFile = Files.createDirectories(this.settings.logs()).resolve("grants-" + setup.id() + ".txt");
			Files.deleteIfExists(grantsFile);
			List<String> childJvmArgs = new ArrayList<>(this.settings.childJvmArgs());
			childJvmArgs.addAll(clientArgs);
			List<Measurement> measurements = List.of();
			if (!this.settings.include().isBlank()) {
				log("Running the JMH workloads");
				measurements = jmh(pinned.connectString(), grantsFile, setup, clientArgs, childJvmArgs);
			}
			List<GrantCount> grants = Files.exists(grantsFile)
					? Files.readAllLines(grantsFile).stream().filter((line) -> !line.isBlank()).map(GrantCount::parse)
						.toList()
					: List.of();
			List<TurnsReport> turns = new ArrayList<>();
			if (this.settings.turns() > 0) {
				for (int threads : this.settings.turnThreads()) {
					log("Measuring the floor and zklock in turns, " + threads + " thread(s) (workload 1i)");
					turns.add(turns(pinned.connectString(), setup, clientArgs, threads));
				}
			}
			List<LeaderFailover.Result> failovers = new ArrayList<>();
			if (this.settings.failoverRepetitions() > 0) {
				for (Election election : Election.values()) {
					log("Measuring leader failovers of " + election.label() + " (workload 8)");
					failovers.addAll(LeaderFailover.measure(pinned.connectString(), election,
							this.settings.failoverSessionTimeout(), this.settings.failoverRepetitions(),
							childJvmArgs));
				}
			}
			return new SetupReport(setup, description, pinned.describe(), measurements, grants, requests, turns,
					failovers);
		}
		finally {
			setClientProperties(List.of());
		}
	}

	private TurnsReport turns(String connectString, ZooKeeperSetup setup, List<String> clientArgs, int threads)
			throws Exception {
		List<String> forkJvmArgs = new ArrayList<>(BENCHMARK_JVM_ARGS);
		forkJvmArgs.addAll(clientArgs);
		UncontendedInTurns.Settings turns = new UncontendedInTurns.Settings(Math.max(1, this.settings.forks()),
				this.settings.turnWarmup(), this.settings.turns(), this.settings.turnTime(),
				this.settings.turnLibraries(), threads);
		LoadAverage loadBefore = LoadAverage.read();
		CpuAccount cpuBefore = CpuAccount.read();
		List<UncontendedInTurns.Fork> forks = UncontendedInTurns.measure(connectString, turns, forkJvmArgs,
				this.settings.logs(), setup.id());
		CpuAccount cpuAfter = CpuAccount.read();
		return new TurnsReport(threads, forks, new Measurement.Load(loadBefore, LoadAverage.read(),
				cpuAfter.otherProcessors(cpuBefore)));
	}

	/**
	 * Set this JVM's client TLS properties ({@code -Dname=value} options) for the benchmarks
	 * that run inside it, clearing those of an earlier setup.
	 */
	private static void setClientProperties(List<String> clientArgs) {
		System.clearProperty(CuratorClients.TLS_TRUST_STORE_PROPERTY);
		System.clearProperty(CuratorClients.TLS_PASSWORD_PROPERTY);
		for (String arg : clientArgs) {
			int equals = arg.indexOf('=');
			System.setProperty(arg.substring(2, equals), arg.substring(equals + 1));
		}
	}

	private List<Measurement> jmh(String connectString, Path grantsFile, ZooKeeperSetup setup,
			List<String> clientArgs, List<String> childJvmArgList) throws IOException, RunnerException {
		String childJvmArgs = String.join(" ", childJvmArgList);
		System.setProperty(ZooKeeperTarget.CONNECT_STRING_PROPERTY, connectString);
		System.setProperty(ZooKeeperTarget.CHILD_JVM_ARGS_PROPERTY, childJvmArgs);
		System.setProperty(ZooKeeperTarget.GRANTS_FILE_PROPERTY, grantsFile.toAbsolutePath().toString());
		List<String> jvmArgs = new ArrayList<>(BENCHMARK_JVM_ARGS);
		jvmArgs.add("-D" + ZooKeeperTarget.CONNECT_STRING_PROPERTY + "=" + connectString);
		jvmArgs.add("-D" + ZooKeeperTarget.CHILD_JVM_ARGS_PROPERTY + "=" + childJvmArgs);
		jvmArgs.add("-D" + ZooKeeperTarget.GRANTS_FILE_PROPERTY + "=" + grantsFile.toAbsolutePath());
		jvmArgs.addAll(clientArgs);
		// The forks keep their files (and those of the JVMs they start) where this JVM keeps its own.
		jvmArgs.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
		Path log = jmhLog(setup);
		log("JMH output: " + log.toAbsolutePath());
		// The forks of a benchmark run as rounds: the whole set once per round, one fork of each
		// benchmark per round, so that a row's forks are spread over the run and its interval holds
		// the drift of the machine (the disk's syncs above all) between rows measured apart.
		int rounds = Math.max(1, this.settings.forks());
		ChainedOptionsBuilder builder = new OptionsBuilder().include(this.settings.include())
			.forks(Math.min(1, this.settings.forks()))
			.warmupIterations(this.settings.warmupIterations())
			.warmupTime(TimeValue.milliseconds(this.settings.warmupTime().toMillis()))
			.measurementIterations(this.settings.iterations())
			.measurementTime(TimeValue.milliseconds(this.settings.iterationTime().toMillis()))
			.jvmArgs(jvmArgs.toArray(String[]::new))
			.addProfiler(GCProfiler.class)
			.addProfiler(ProcessCpuProfiler.class)
			.shouldFailOnError(true)
			.timeout(TimeValue.minutes(5));
		if (!this.settings.libraries().isEmpty()) {
			builder.param("library", this.settings.libraries().toArray(String[]::new));
		}
		Options options = builder.build();
		List<Measurement> measurements = new ArrayList<>();
		try (PrintStream output = new PrintStream(Files.newOutputStream(log), true, StandardCharsets.UTF_8)) {
			for (int round = 1; round <= rounds; round++) {
				if (rounds > 1) {
					log("Round " + round + " of " + rounds);
				}
				LoadRecorder recorder = new LoadRecorder(
						OutputFormatFactory.createFormatInstance(output, VerboseMode.NORMAL));
				Collection<RunResult> results = new Runner(options, recorder).run();
				measurements.addAll(Measurement.of(results, recorder::load));
			}
		}
		return Measurement.merge(measurements);
	}

	private Path jmhLog(ZooKeeperSetup setup) throws IOException {
		Path folder = Files.createDirectories(this.settings.logs());
		return folder.resolve("jmh-" + setup.id() + ".log");
	}

	static void log(String message) {
		System.out.println(CLOCK.format(LocalTime.now()) + " " + message);
		System.out.flush();
	}

}
