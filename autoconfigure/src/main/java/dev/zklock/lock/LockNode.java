package dev.zklock.lock;

/**
 * The node one holder created for one lock.
 *
 * @param path the node's full path (without the client's namespace)
 * @param czxid the zxid that created the node: the fencing token
 * @param sessionId the session that owns the ephemeral node
 */
record LockNode(String path, long czxid, long sessionId) {
}
