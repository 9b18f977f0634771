package dev.zklock.leader;

import dev.zklock.annotation.WhenNotLeader;

/**
 * What {@code @ZkLeader} asks of one method, resolved once: the group, with the default group
 * and placeholders applied, and the policy for calls on a non-leader.
 */
record LeaderSpec(String group, WhenNotLeader whenNotLeader) {
}
