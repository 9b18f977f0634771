package dev.zklock.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockException;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Membership of the leadership groups that have a minimum number of participants
 * ({@code zklock.leader.min-participants.<group>}): so that a team learns that its standby is
 * gone before the leader goes too. The status is UP, since this instance works as well as it
 * did; each group shows its participants and minimum, and {@code belowMinimum} lists the groups
 * that have fewer participants than their minimum (alert on it, or on the
 * {@code zklock.leader.participants} gauge). When ZooKeeper cannot be read, the group shows the
 * error and is not counted below its minimum.
 *
 * @since 0.2.0
 */
public class LeadershipHealthIndicator extends AbstractHealthIndicator {

	private final ZkLeadership leadership;

	private final Map<String, Integer> minimums;

	/**
	 * Create an indicator.
	 * @param leadership the elections
	 * @param minimums the minimum number of participants by group
	 */
	public LeadershipHealthIndicator(ZkLeadership leadership, Map<String, Integer> minimums) {
		super("Leadership health check failed");
		this.leadership = leadership;
		this.minimums = new TreeMap<>(minimums);
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		Map<String, Object> groups = new LinkedHashMap<>();
		List<String> below = new ArrayList<>();
		this.minimums.forEach((group, minimum) -> {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("minimum", minimum);
			try {
				int participants = this.leadership.participants(group).size();
				details.put("participants", participants);
				if (participants < minimum) {
					below.add(group);
				}
			}
			catch (ZkLockException | IllegalArgumentException ex) {
				details.put("error", ex.getMessage());
			}
			groups.put(group, details);
		});
		builder.up().withDetail("groups", groups).withDetail("belowMinimum", below);
	}

}
