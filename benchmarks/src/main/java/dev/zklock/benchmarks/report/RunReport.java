package dev.zklock.benchmarks.report;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.zklock.benchmarks.RunSettings;

/**
 * Everything a benchmark run measured, and where and how.
 *
 * @param settings the settings of the run
 * @param provenance the commit and library versions measured
 * @param machine the machine
 * @param benchmarkJvmArgs the JVM options of the JMH benchmark JVMs
 * @param started when the run started
 * @param elapsed how long it took
 * @param loadBefore the load averages when it started
 * @param loadAfter the load averages when it ended
 * @param setups the figures of each ZooKeeper setup
 */
public record RunReport(RunSettings settings, Provenance provenance, Machine machine, List<String> benchmarkJvmArgs,
		Instant started, Duration elapsed, LoadAverage loadBefore, LoadAverage loadAfter, List<SetupReport> setups) {

}
