package dev.zklock.cluster;

import org.apache.curator.framework.CuratorFramework;

/**
 * Makes the short-lived clients on which {@link ClusterView} reads a list of children too long
 * for the application's own client to take in one reply. Each has a session of its own, so a
 * reply it cannot take drops its connection and never the one whose session holds the
 * application's locks.
 *
 * @since 0.2.0
 */
@FunctionalInterface
public interface ListingClients {

	/**
	 * Return a new client, not started, of the same ensemble, namespace and credentials as the
	 * application's, that takes replies of up to {@code replyLimit} bytes (its
	 * {@code jute.maxbuffer}) and does not retry a lost connection. The caller starts it, reads
	 * one list and closes it.
	 * @param replyLimit the largest reply it must take, in bytes
	 * @return the client
	 */
	CuratorFramework newClient(int replyLimit);

}
