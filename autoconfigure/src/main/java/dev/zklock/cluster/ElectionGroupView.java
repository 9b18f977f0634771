package dev.zklock.cluster;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One election group, as ZooKeeper shows it to any instance.
 *
 * @param group the group
 * @param participants the participant ids in takeover order, the leader first
 * @param leader the leader's participant id, {@code null} when nobody takes part
 * @param epoch the epoch of the leader's term (its node's creation zxid), {@code -1} when nobody
 * leads
 * @since 0.2.0
 */
public record ElectionGroupView(String group, List<String> participants, @Nullable String leader, long epoch) {

}
