package dev.zklock.leader;

import dev.zklock.support.CallStyle;

import dev.zklock.annotation.WhenNotLeader;

/**
 * What {@code @ZkLeader} asks of one method, resolved once: the group, with the default group
 * and placeholders applied, the policy for calls on a non-leader, how the method delivers its
 * result, and whether a call is interrupted when its term ends.
 */
record LeaderSpec(String group, WhenNotLeader whenNotLeader, CallStyle style, boolean interruptOnRevoke) {

	LeaderSpec(String group, WhenNotLeader whenNotLeader) {
		this(group, whenNotLeader, CallStyle.BLOCKING);
	}

	LeaderSpec(String group, WhenNotLeader whenNotLeader, CallStyle style) {
		this(group, whenNotLeader, style, false);
	}

}
