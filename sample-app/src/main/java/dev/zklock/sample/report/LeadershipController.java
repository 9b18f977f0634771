package dev.zklock.sample.report;

import java.time.Instant;
import java.util.List;

import dev.zklock.ZkLeadership;
import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /leadership}: this instance's view of the leader elections it takes part in.
 */
@RestController
class LeadershipController {

	private final ZkLeadership leadership;

	private final LowStockReport report;

	LeadershipController(ZkLeadership leadership, LowStockReport report) {
		this.leadership = leadership;
		this.report = report;
	}

	@GetMapping("/leadership")
	LeadershipView leadership() {
		List<GroupView> groups = this.leadership.groups().stream().map(this::group).toList();
		return new LeadershipView(this.leadership.participantId(), groups,
				new ReportView(this.report.runs(), this.report.lastRun()));
	}

	private GroupView group(String group) {
		var epoch = this.leadership.epoch(group);
		return new GroupView(group, this.leadership.isLeader(group), this.leadership.currentLeader(group).orElse(null),
				this.leadership.participants(group), epoch.isPresent() ? epoch.getAsLong() : null);
	}

	/**
	 * This instance and its elections.
	 *
	 * @param participantId the id of this instance in every election
	 * @param groups the elections
	 * @param lowStockReport the runs of the leader-only report on this instance
	 */
	record LeadershipView(String participantId, List<GroupView> groups, ReportView lowStockReport) {

	}

	/**
	 * One election.
	 *
	 * @param group the group
	 * @param leader whether this instance leads it
	 * @param currentLeader the leader's participant id, as ZooKeeper sees it
	 * @param participants every participant, the leader first, then in the order they would take over
	 * @param epoch the fencing token of the current term
	 */
	record GroupView(String group, boolean leader, @Nullable String currentLeader, List<String> participants,
			@Nullable Long epoch) {

	}

	/**
	 * The low-stock report's runs on this instance.
	 *
	 * @param runsHere how many times this instance made it
	 * @param lastRunHere when this instance last made it
	 */
	record ReportView(int runsHere, @Nullable Instant lastRunHere) {

	}

}
