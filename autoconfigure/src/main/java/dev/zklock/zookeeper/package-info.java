/**
 * Everything zklock asks of ZooKeeper, behind one port ({@link dev.zklock.zookeeper.ZooKeeperPort}):
 * the requests the lock core and the elections make, their replies and watches, the client's
 * connection and session, time and timers. {@link dev.zklock.zookeeper.CuratorPort} is its one
 * production implementation; the tests' deterministic simulator is the other. Internal: not part
 * of the API.
 */
@NullMarked
package dev.zklock.zookeeper;

import org.jspecify.annotations.NullMarked;
