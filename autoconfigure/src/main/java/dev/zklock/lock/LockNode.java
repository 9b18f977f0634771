package dev.zklock.lock;

import dev.zklock.LockMode;

/**
 * A lock node of this instance that holds its key.
 *
 * @param path the node's full path (without the client's namespace)
 * @param sessionId the session that owns the ephemeral node
 * @param mode the node's mode
 * @param grantZxid the zxid of the node's first grant's fencing token: later than the zxid of
 * every token granted on the key before (see {@link FencingTokenSpace} and
 * {@code docs/lock-core.md})
 * @param confirmedAt when the request that proved the grant was sent, on the port's clock: the
 * node is known to be ours as of then
 */
record LockNode(String path, long sessionId, LockMode mode, long grantZxid, long confirmedAt) {
}
