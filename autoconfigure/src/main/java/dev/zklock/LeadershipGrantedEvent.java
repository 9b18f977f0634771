package dev.zklock;

/**
 * Published when this instance becomes the leader of a group.
 *
 * @since 0.1.0
 */
public class LeadershipGrantedEvent extends LeadershipEvent {

	public LeadershipGrantedEvent(ZkLeadership source, String group, String participantId, long epoch) {
		super(source, group, participantId, epoch);
	}

}
