package dev.zklock.benchmarks.report;

import java.util.List;

import dev.zklock.benchmarks.ZooKeeperSetup;
import dev.zklock.benchmarks.workload.GrantCount;
import dev.zklock.benchmarks.workload.LeaderFailover;
import dev.zklock.benchmarks.workload.RequestsPerCycle;

/**
 * Everything measured against one ZooKeeper setup.
 *
 * @param setup the setup
 * @param servers how its servers ran
 * @param target which server every client of the benchmarks connected to, and its role
 * @param measurements the JMH figures
 * @param grants the grants of each JVM of workload 4, per fork
 * @param requests the requests per lock cycle, empty where not counted
 * @param turns workload 1i (the uncontended call and the floor in turns), one report per number
 * of threads, empty where not measured
 * @param failovers the leader failover times, empty where not measured
 */
public record SetupReport(ZooKeeperSetup setup, ServerDescription servers, String target,
		List<Measurement> measurements, List<GrantCount> grants, List<RequestsPerCycle.Count> requests,
		List<TurnsReport> turns, List<LeaderFailover.Result> failovers) {

}
