package dev.zklock;

import org.springframework.context.ApplicationEvent;

/**
 * A change of this instance's leadership of a group. Events are published one at a time, in the
 * order of the changes, by a thread of their own: a listener that throws is logged and does not
 * affect the leadership. Since delivery is asynchronous, {@link ZkLeadership#isLeader(String)}
 * may already have changed again when a listener runs.
 *
 * @since 0.1.0
 */
public abstract class LeadershipEvent extends ApplicationEvent {

	private final String group;

	private final String participantId;

	private final long epoch;

	protected LeadershipEvent(ZkLeadership source, String group, String participantId, long epoch) {
		super(source);
		this.group = group;
		this.participantId = participantId;
		this.epoch = epoch;
	}

	/**
	 * Return the group whose leadership changed.
	 * @return the group
	 */
	public String getGroup() {
		return this.group;
	}

	/**
	 * Return the participant id of this instance.
	 * @return the participant id
	 */
	public String getParticipantId() {
		return this.participantId;
	}

	/**
	 * Return the epoch (fencing token) of the term that began or ended.
	 * @return the epoch
	 * @see ZkLeadership#epoch(String)
	 */
	public long getEpoch() {
		return this.epoch;
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + "[group=" + this.group + ", participantId=" + this.participantId
				+ ", epoch=" + this.epoch + "]";
	}

}
