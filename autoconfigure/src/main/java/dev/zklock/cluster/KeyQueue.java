package dev.zklock.cluster;

import java.util.List;

/**
 * The queue of one key: its lock nodes in order, those that hold it first.
 *
 * @param key the key
 * @param nodes the lock nodes, lowest sequence first
 * @since 0.2.0
 */
public record KeyQueue(String key, List<LockNodeView> nodes) {

}
