/**
 * Leader election behind {@code @ZkLeader} and {@link dev.zklock.ZkLeadership}: one election
 * per group on ZooKeeper, the advice that runs leader-only methods, and their startup
 * validation. Internal: not part of the API.
 */
@NullMarked
package dev.zklock.leader;

import org.jspecify.annotations.NullMarked;
