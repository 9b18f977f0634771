package dev.zklock.benchmarks.report;

import java.util.List;

import dev.zklock.benchmarks.ZooKeeperSetup;
import dev.zklock.benchmarks.workload.LeaderFailover;
import dev.zklock.benchmarks.workload.RequestsPerCycle;

/**
 * Everything measured against one ZooKeeper setup.
 *
 * @param setup the setup
 * @param servers how its servers ran
 * @param measurements the JMH figures
 * @param requests the requests per lock cycle, empty where not counted
 * @param failovers the leader failover times, empty where not measured
 */
public record SetupReport(ZooKeeperSetup setup, ServerDescription servers, List<Measurement> measurements,
		List<RequestsPerCycle.Count> requests, List<LeaderFailover.Result> failovers) {

}
