package dev.zklock.micrometer;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import dev.zklock.LeadershipEvent;
import dev.zklock.LeadershipGrantedEvent;
import dev.zklock.ZkLeadership;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationListener;

/**
 * Metrics of this instance's leadership, per group: {@value #LEADER} (gauge), 1 while it leads
 * the group and 0 otherwise, and {@value #CHANGES} (counter), its leadership changes, tagged
 * {@code group} and {@code change} ({@code granted}, {@code revoked}); and for each group with
 * a minimum number of participants, {@value #PARTICIPANTS} (gauge), the number of participants,
 * tagged {@code group} and {@code minimum}.
 *
 * @since 0.1.0
 */
public final class LeadershipMetrics implements ApplicationListener<LeadershipEvent>, SmartInitializingSingleton {

	/**
	 * Name of the gauge of leadership.
	 */
	public static final String LEADER = "zklock.leader";

	/**
	 * Name of the counter of leadership changes.
	 */
	public static final String CHANGES = "zklock.leader.changes";

	/**
	 * Name of the gauge of participants, for the groups that have a minimum.
	 */
	public static final String PARTICIPANTS = "zklock.leader.participants";

	private final MeterRegistry registry;

	private final ZkLeadership leadership;

	private final Set<String> gaugedGroups = ConcurrentHashMap.newKeySet();

	private final Map<String, Integer> minParticipants;

	/**
	 * Create leadership metrics.
	 * @param registry where the meters are registered
	 * @param leadership the elections this instance takes part in
	 */
	public LeadershipMetrics(MeterRegistry registry, ZkLeadership leadership) {
		this(registry, leadership, Map.of());
	}

	/**
	 * Create leadership metrics that also gauge the participants of the groups that have a
	 * minimum number of them.
	 * @param registry where the meters are registered
	 * @param leadership the elections this instance takes part in
	 * @param minParticipants the minimum number of participants by group
	 * @since 0.2.0
	 */
	public LeadershipMetrics(MeterRegistry registry, ZkLeadership leadership, Map<String, Integer> minParticipants) {
		this.registry = registry;
		this.leadership = leadership;
		this.minParticipants = Map.copyOf(minParticipants);
	}

	/**
	 * Register a gauge for every group known once the application's beans exist, those of
	 * {@code @ZkLeader} methods included.
	 */
	@Override
	public void afterSingletonsInstantiated() {
		this.leadership.groups().forEach(this::registerGauge);
		this.minParticipants.forEach((group, minimum) -> Gauge
			.builder(PARTICIPANTS, this.leadership, (leadership) -> participants(leadership, group))
			.description("Participants of the group's election, as ZooKeeper sees them (NaN when unknown)")
			.tag("group", group)
			.tag("minimum", String.valueOf(minimum))
			.register(this.registry));
	}

	private static double participants(ZkLeadership leadership, String group) {
		try {
			return leadership.participants(group).size();
		}
		catch (RuntimeException ex) {
			return Double.NaN;
		}
	}

	@Override
	public void onApplicationEvent(LeadershipEvent event) {
		registerGauge(event.getGroup());
		Counter.builder(CHANGES)
			.description("Changes of this instance's leadership of a group")
			.tag("group", event.getGroup())
			.tag("change", (event instanceof LeadershipGrantedEvent) ? "granted" : "revoked")
			.register(this.registry)
			.increment();
	}

	private void registerGauge(String group) {
		if (!this.gaugedGroups.add(group)) {
			return;
		}
		Gauge.builder(LEADER, this.leadership, (leadership) -> leadership.isLeader(group) ? 1 : 0)
			.description("Whether this instance leads the group: 1 if it does, 0 if not")
			.tag("group", group)
			.register(this.registry);
	}

}
