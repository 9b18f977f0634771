package dev.zklock.leader;

import dev.zklock.annotation.WhenNotLeader;

/**
 * What {@code @ZkLeader} asks of one method, resolved once: the group, with the default group
 * and placeholders applied, the policy for calls on a non-leader, and whether a call is
 * interrupted when its term ends.
 */
record LeaderSpec(String group, WhenNotLeader whenNotLeader, boolean interruptOnRevoke) {

	LeaderSpec(String group, WhenNotLeader whenNotLeader) {
		this(group, whenNotLeader, false);
	}

}
