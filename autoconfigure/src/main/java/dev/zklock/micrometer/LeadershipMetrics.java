package dev.zklock.micrometer;

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
 * {@code group} and {@code change} ({@code granted}, {@code revoked}).
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

	private final MeterRegistry registry;

	private final ZkLeadership leadership;

	private final Set<String> gaugedGroups = ConcurrentHashMap.newKeySet();

	/**
	 * Create leadership metrics.
	 * @param registry where the meters are registered
	 * @param leadership the elections this instance takes part in
	 */
	public LeadershipMetrics(MeterRegistry registry, ZkLeadership leadership) {
		this.registry = registry;
		this.leadership = leadership;
	}

	/**
	 * Register a gauge for every group known once the application's beans exist, those of
	 * {@code @ZkLeader} methods included.
	 */
	@Override
	public void afterSingletonsInstantiated() {
		this.leadership.groups().forEach(this::registerGauge);
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
