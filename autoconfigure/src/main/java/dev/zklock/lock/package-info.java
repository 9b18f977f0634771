/**
 * The lock engine behind {@link dev.zklock.ZkLockTemplate}: the herd-free ZooKeeper lock
 * recipe, held-lock state driven by the connection state, and pause detection. Internal: not
 * part of the API.
 */
@NullMarked
package dev.zklock.lock;

import org.jspecify.annotations.NullMarked;
