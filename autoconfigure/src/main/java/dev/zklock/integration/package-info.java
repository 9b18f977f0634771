/**
 * Spring Integration's {@code LockRegistry} on zklock: {@link dev.zklock.integration.ZkLockRegistry},
 * for Spring Integration's components and its {@code LockRegistryLeaderInitiator}.
 */
@NullMarked
package dev.zklock.integration;

import org.jspecify.annotations.NullMarked;
