package dev.zklock.cluster;

import dev.zklock.ZkLockException;

/**
 * Thrown by {@link ClusterView} when a node has more children than the application's client
 * can safely take in one reply and no {@link ListingClients} is there to read them on a session
 * of their own: the view refuses the read rather than drop the connection whose session holds
 * the application's locks.
 *
 * @since 0.2.0
 */
public class TooManyChildrenException extends ZkLockException {

	/**
	 * Create an exception.
	 * @param path the node
	 * @param children how many children it has
	 * @param replyLimit the largest reply the application's client takes, in bytes
	 */
	public TooManyChildrenException(String path, int children, int replyLimit) {
		super(path + " has " + children + " children, too many for one reply to this instance's ZooKeeper client "
				+ "(jute.maxbuffer " + replyLimit + " bytes) and no ListingClients reads them on a session of its own: "
				+ "ask for a key by name, or give the view a ListingClients");
	}

}
