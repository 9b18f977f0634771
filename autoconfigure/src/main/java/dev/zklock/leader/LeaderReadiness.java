package dev.zklock.leader;

import java.util.function.Supplier;

import dev.zklock.LeadershipEvent;
import dev.zklock.ZkLeadership;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.AvailabilityState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;

/**
 * The application's availability, with a readiness that follows the leadership of one group,
 * for active-passive deployments: the application accepts traffic only while it is ready by its
 * own account and leads the group, so that a readiness probe (a load balancer, a Kubernetes
 * Service) sends traffic to the leader only.
 * <p>
 * The application's own readiness events are recorded as usual; the leadership only narrows
 * what {@link #getState} reports. Each change of the leadership is published as an
 * {@link AvailabilityChangeEvent} of the readiness that results, from this bean, and those
 * events do not overwrite the application's own state.
 *
 * @since 0.2.0
 */
public class LeaderReadiness extends ApplicationAvailabilityBean {

	private final String group;

	private final Supplier<ZkLeadership> leadership;

	/**
	 * Create an instance.
	 * @param group the group whose leadership readiness follows
	 * @param leadership the leadership, looked up when first needed
	 * @param methods the leader-only methods, which record the group so that it is joined
	 */
	public LeaderReadiness(String group, Supplier<ZkLeadership> leadership, LeaderMethods methods) {
		this.group = methods.group(group);
		this.leadership = leadership;
	}

	@Override
	public <S extends AvailabilityState> S getState(Class<S> stateType, S defaultState) {
		return narrowed(stateType, super.getState(stateType, defaultState));
	}

	@Override
	public <S extends AvailabilityState> @Nullable S getState(Class<S> stateType) {
		S state = super.getState(stateType);
		return (state != null) ? narrowed(stateType, state) : null;
	}

	@Override
	public void onApplicationEvent(AvailabilityChangeEvent<?> event) {
		if (event.getSource() != this) {
			super.onApplicationEvent(event);
		}
	}

	private <S extends AvailabilityState> S narrowed(Class<S> stateType, S state) {
		if (stateType == ReadinessState.class && state == ReadinessState.ACCEPTING_TRAFFIC && !leads()) {
			return stateType.cast(ReadinessState.REFUSING_TRAFFIC);
		}
		return state;
	}

	private boolean leads() {
		try {
			return this.leadership.get().isLeader(this.group);
		}
		catch (RuntimeException ex) {
			return false; // Not available yet, or no more.
		}
	}

	/**
	 * Return a listener that publishes the readiness that results from each change of the
	 * group's leadership.
	 * @param publisher where to publish
	 * @return the listener
	 */
	public ApplicationListener<LeadershipEvent> follower(ApplicationEventPublisher publisher) {
		return (event) -> {
			if (event.getGroup().equals(this.group)) {
				AvailabilityChangeEvent.publish(publisher, this, getReadinessState());
			}
		};
	}

}
