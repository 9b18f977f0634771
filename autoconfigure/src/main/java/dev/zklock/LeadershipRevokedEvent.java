package dev.zklock;

/**
 * Published when this instance stops being the leader of a group: its connection to ZooKeeper
 * was suspended or its session lost, it yielded, or it left the election at shutdown.
 *
 * @since 0.1.0
 */
public class LeadershipRevokedEvent extends LeadershipEvent {

	public LeadershipRevokedEvent(ZkLeadership source, String group, String participantId, long epoch) {
		super(source, group, participantId, epoch);
	}

}
