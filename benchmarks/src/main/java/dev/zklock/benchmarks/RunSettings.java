package dev.zklock.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.springframework.boot.convert.DurationStyle;

/**
 * What a benchmark run does, from {@code bench.*} properties over the defaults of a profile:
 * {@code full} (the default, for the published figures), {@code smoke} (seconds per benchmark,
 * to check that everything runs) or {@code test} (the in-JVM run of the build's smoke test).
 */
public final class RunSettings {

	private static final String PREFIX = "bench.";

	/** The libraries of workload 1i in every profile: the floor, zklock, then those beside them. */
	private static final String TURN_LIBRARIES = "floor,zklock,shape-two-multis-sync,shape-two-multis-named";

	private static final Map<String, Map<String, String>> PROFILES = Map.of("full",
			Map.ofEntries(Map.entry("forks", "3"), Map.entry("warmupIterations", "2"), Map.entry("warmupTime", "2s"),
					Map.entry("iterations", "5"), Map.entry("iterationTime", "2s"),
					Map.entry("setups", "standalone,ensemble"), Map.entry("requestCycles", "1000"),
					Map.entry("failoverRepetitions", "10"), Map.entry("failoverSessionTimeout", "10s"),
					Map.entry("tickTime", "2000"), Map.entry("output", "docs/BENCHMARKS.md"),
					Map.entry("logs", "benchmarks/target/benchmark-logs"), Map.entry("childJvmArgs", "-Xmx512m"),
					Map.entry("turns", "0"), Map.entry("turnTime", "1s"), Map.entry("turnWarmup", "120s"),
					Map.entry("turnLibraries", TURN_LIBRARIES), Map.entry("turnThreads", "1")),
			"smoke",
			Map.ofEntries(Map.entry("forks", "1"), Map.entry("warmupIterations", "1"), Map.entry("warmupTime", "200ms"),
					Map.entry("iterations", "3"), Map.entry("iterationTime", "300ms"),
					Map.entry("setups", "standalone,ensemble"), Map.entry("requestCycles", "50"),
					Map.entry("failoverRepetitions", "1"), Map.entry("failoverSessionTimeout", "4s"),
					Map.entry("tickTime", "2000"), Map.entry("output", "benchmarks/target/BENCHMARKS-smoke.md"),
					Map.entry("logs", "benchmarks/target/benchmark-logs"), Map.entry("childJvmArgs", "-Xmx512m"),
					Map.entry("turns", "3"), Map.entry("turnTime", "200ms"), Map.entry("turnWarmup", "1s"),
					Map.entry("turnLibraries", TURN_LIBRARIES), Map.entry("turnThreads", "1")),
			"test",
			Map.ofEntries(Map.entry("forks", "0"), Map.entry("warmupIterations", "0"), Map.entry("warmupTime", "100ms"),
					Map.entry("iterations", "1"), Map.entry("iterationTime", "100ms"),
					Map.entry("setups", "standalone"),
					Map.entry("requestCycles", "5"), Map.entry("failoverRepetitions", "1"),
					Map.entry("failoverSessionTimeout", "1s"), Map.entry("tickTime", "200"),
					Map.entry("output", "target/BENCHMARKS-test.md"), Map.entry("logs", "target/benchmark-logs"),
					Map.entry("childJvmArgs", "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"),
					Map.entry("turns", "2"), Map.entry("turnTime", "100ms"), Map.entry("turnWarmup", "200ms"),
					Map.entry("turnLibraries", TURN_LIBRARIES), Map.entry("turnThreads", "1,4")));

	private static final Map<String, String> COMMON = Map.of("include", "dev\\.zklock\\.benchmarks\\.workload\\..*",
			"library", "", "forceSync", "yes", "command", "(not given)", "busyProcessors", "0.25", "ensembleServer",
			"follower");

	private final String profile;

	private final Map<String, String> values;

	private RunSettings(String profile, Map<String, String> values) {
		this.profile = profile;
		this.values = values;
	}

	/**
	 * Read the settings from {@code bench.*} system properties.
	 * @return the settings
	 */
	public static RunSettings fromSystemProperties() {
		Map<String, String> given = new HashMap<>();
		Properties properties = System.getProperties();
		for (String name : properties.stringPropertyNames()) {
			if (name.startsWith(PREFIX)) {
				given.put(name.substring(PREFIX.length()), properties.getProperty(name));
			}
		}
		return of(given);
	}

	/**
	 * Return the settings of a profile, named by {@code profile} (default {@code full}), with the
	 * given values over its defaults.
	 * @param given settings by name, without the {@code bench.} prefix
	 * @return the settings
	 * @throws IllegalArgumentException for an unknown profile or setting
	 */
	public static RunSettings of(Map<String, String> given) {
		String profile = given.getOrDefault("profile", "full");
		Map<String, String> defaults = PROFILES.get(profile);
		if (defaults == null) {
			throw new IllegalArgumentException(
					"Unknown bench.profile '" + profile + "': use one of " + PROFILES.keySet());
		}
		Map<String, String> values = new HashMap<>(COMMON);
		values.putAll(defaults);
		for (Map.Entry<String, String> entry : given.entrySet()) {
			if (!entry.getKey().equals("profile") && !values.containsKey(entry.getKey())) {
				throw new IllegalArgumentException("Unknown setting bench." + entry.getKey() + ": use one of "
						+ values.keySet().stream().sorted().toList());
			}
		}
		values.putAll(given);
		values.remove("profile");
		return new RunSettings(profile, Map.copyOf(values));
	}

	/**
	 * Return the profile whose defaults apply.
	 * @return the profile
	 */
	public String profile() {
		return this.profile;
	}

	/**
	 * Return the JMH forks per benchmark; 0 runs in this JVM.
	 * @return the forks
	 */
	public int forks() {
		return integer("forks");
	}

	/**
	 * Return the warmup iterations per fork.
	 * @return the iterations
	 */
	public int warmupIterations() {
		return integer("warmupIterations");
	}

	/**
	 * Return the length of a warmup iteration.
	 * @return the time
	 */
	public Duration warmupTime() {
		return duration("warmupTime");
	}

	/**
	 * Return the measurement iterations per fork.
	 * @return the iterations
	 */
	public int iterations() {
		return integer("iterations");
	}

	/**
	 * Return the length of a measurement iteration.
	 * @return the time
	 */
	public Duration iterationTime() {
		return duration("iterationTime");
	}

	/**
	 * Return the ZooKeeper setups to run against, in order.
	 * @return the setups
	 */
	public List<ZooKeeperSetup> setups() {
		return list("setups").stream().map(ZooKeeperSetup::of).toList();
	}

	/**
	 * Return the regular expression of the JMH benchmarks to run; empty runs none.
	 * @return the expression
	 */
	public String include() {
		return this.values.get("include");
	}

	/**
	 * Return the libraries to run, as values of the benchmarks' {@code library} parameter; empty
	 * for every library of each benchmark.
	 * @return the library ids
	 */
	public List<String> libraries() {
		return list("library");
	}

	/**
	 * Return how many processors, on average over a benchmark, processes other than the run's
	 * own may keep busy before the benchmark counts as run on a busy machine. The run's own
	 * processes (the JMH forks, the ZooKeeper servers, the second JVMs) do not count: a load
	 * average cannot tell their load from another's.
	 * @return the processors
	 */
	public double busyProcessors() {
		String value = this.values.get("busyProcessors").trim();
		try {
			return Double.parseDouble(value);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("bench.busyProcessors must be a number, not '" + value + "'", ex);
		}
	}

	/**
	 * Return the role of the one server of an ensemble that every client of the benchmarks
	 * connects to, so that every library talks to the same kind of server.
	 * @return {@code follower} or {@code leader}
	 */
	public String ensembleServer() {
		String value = this.values.get("ensembleServer").trim();
		if (!value.equals("follower") && !value.equals("leader")) {
			throw new IllegalArgumentException("bench.ensembleServer must be follower or leader, not '" + value + "'");
		}
		return value;
	}

	/**
	 * Return the lock cycles per library for counting requests; 0 skips it.
	 * @return the cycles
	 */
	public int requestCycles() {
		return integer("requestCycles");
	}

	/**
	 * Return the leader failovers per library and kind of shutdown; 0 skips them.
	 * @return the count
	 */
	public int failoverRepetitions() {
		return integer("failoverRepetitions");
	}

	/**
	 * Return the session timeout of leader election participants.
	 * @return the timeout
	 */
	public Duration failoverSessionTimeout() {
		return duration("failoverSessionTimeout");
	}

	/**
	 * Return the measured rounds of each fork of workload 1i (the uncontended call and the floor
	 * taking turns in one JVM), a turn of each library a round; 0 skips it.
	 * @return the rounds
	 */
	public int turns() {
		return integer("turns");
	}

	/**
	 * Return the length of one turn of workload 1i.
	 * @return the time
	 */
	public Duration turnTime() {
		return duration("turnTime");
	}

	/**
	 * Return the libraries that take turns in workload 1i: the floor, zklock, then any shown
	 * beside them.
	 * @return the library ids
	 */
	public List<String> turnLibraries() {
		return list("turnLibraries");
	}

	/**
	 * Return the numbers of threads workload 1i runs with, one after the other: 1 is one thread
	 * on one key, more are as many threads on a key each.
	 * @return the numbers of threads
	 */
	public List<Integer> turnThreads() {
		return list("turnThreads").stream().map((value) -> {
			try {
				return Integer.parseInt(value);
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException(
						"bench.turnThreads must be whole numbers separated by commas, not '" + value + "'", ex);
			}
		}).toList();
	}

	/**
	 * Return the warmup of each fork of workload 1i, in turns of every library.
	 * @return the time
	 */
	public Duration turnWarmup() {
		return duration("turnWarmup");
	}

	/**
	 * Return the ZooKeeper servers' tick in milliseconds.
	 * @return the tick time
	 */
	public int tickTime() {
		return integer("tickTime");
	}

	/**
	 * Return whether the servers sync their transaction log to disk before acknowledging.
	 * @return forceSync
	 */
	public boolean forceSync() {
		return switch (this.values.get("forceSync")) {
			case "yes", "true" -> true;
			case "no", "false" -> false;
			default -> throw new IllegalArgumentException("bench.forceSync must be yes or no");
		};
	}

	/**
	 * Return the report file.
	 * @return the path
	 */
	public Path output() {
		return Path.of(this.values.get("output"));
	}

	/**
	 * Return the JVM options of the second JVMs of workload 4 and the election participants of
	 * workload 8.
	 * @return the options
	 */
	public List<String> childJvmArgs() {
		return Arrays.stream(this.values.get("childJvmArgs").trim().split("\\s+"))
			.filter((arg) -> !arg.isEmpty())
			.toList();
	}

	/**
	 * Return the folder for the JMH output of each setup.
	 * @return the folder
	 */
	public Path logs() {
		return Path.of(this.values.get("logs"));
	}

	/**
	 * Return the command that started the run, as the report shows it.
	 * @return the command
	 */
	public String command() {
		return this.values.get("command");
	}

	/**
	 * Return every setting, for the report.
	 * @return the settings by name, sorted
	 */
	public Map<String, String> asMap() {
		return new java.util.TreeMap<>(this.values);
	}

	/**
	 * Return a setting's values, separated by commas, without blanks.
	 */
	private List<String> list(String name) {
		return Arrays.stream(this.values.get(name).split(","))
			.map(String::trim)
			.filter((value) -> !value.isEmpty())
			.toList();
	}

	private int integer(String name) {
		try {
			return Integer.parseInt(this.values.get(name).trim());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(
					"bench." + name + " must be a whole number, not '" + this.values.get(name) + "'", ex);
		}
	}

	private Duration duration(String name) {
		return DurationStyle.detectAndParse(this.values.get(name).trim());
	}

}
