package dev.zklock.lock;

/**
 * How an instance names the lock nodes it creates, so that its locks exclude those of another
 * ZooKeeper lock recipe on the same paths. Whatever the setting, an instance orders and obeys
 * the nodes of both namings (and of both Curator recipes) under a key: the setting decides
 * which recipe sees <em>its</em> nodes.
 *
 * @since 0.2.0
 */
public enum LockNodeNames {

	/**
	 * Name nodes as Curator's {@code InterProcessReadWriteLock} names its children:
	 * {@code _c_<id>-__WRIT__<sequence>} for an exclusive node, {@code _c_<id>-__READ__<sequence>}
	 * for a shared one. zklock and Curator's read-write lock on the same path exclude each other
	 * (its write lock as an exclusive lock, its read lock as a shared one). Curator's
	 * {@code InterProcessMutex} does not see these nodes in their order. The default.
	 */
	READ_WRITE_LOCK,

	/**
	 * Name nodes as Curator's {@code InterProcessMutex} names its children, and therefore Spring
	 * Integration's {@code ZookeeperLockRegistry}: {@code _c_<id>-lock-<sequence>} for an
	 * exclusive node, {@code _c_<id>-__READ__lock-<sequence>} for a shared one (which the mutex
	 * sees as one more holder before it, so that shared holders exclude it too). zklock and the
	 * mutex on the same path exclude each other, for a fleet that moves to zklock one instance at
	 * a time. Curator's read-write lock does not see these nodes in their order.
	 */
	MUTEX

}
