package dev.zklock.lock;

/**
 * What the instance-owned lock saved, counted since the engine started.
 *
 * @param handoffs local grants that followed another on the same node, without ZooKeeper
 * @param reuses grants that reused a kept node
 * @param releasesOnRequest kept nodes released because another instance asked for the key
 * @param kept idle nodes kept now
 */
public record LockCounts(long handoffs, long reuses, long releasesOnRequest, int kept) {
}
