package dev.zklock.cluster;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zklock.ZkLockException;

/**
 * Reads the children of a node without ever asking the application's client for a reply it
 * cannot take: past its reply limit ({@code jute.maxbuffer}) a client drops its connection, and
 * the application's connection is the one whose session holds its locks. The node's
 * {@link Stat} is read first (a reply of fixed size); the list is read on the application's
 * session only while the children, at {@code allowance} bytes a name, fill at most a
 * {@value #SHARE}th of its reply limit; a longer list is read on a short-lived session of its
 * own ({@link ListingClients}), or refused when there is none.
 */
final class BoundedChildren {

	/**
	 * The share of the application's reply limit that a list read on its session may fill, at
	 * the allowance a name.
	 */
	static final int SHARE = 4;

	/**
	 * The most a listing session takes in one reply: some 1.4 million names of 40 characters.
	 */
	static final int MAX_LISTING_REPLY = 64 * 1024 * 1024;

	private final CuratorFramework client;

	private final @Nullable ListingClients listings;

	BoundedChildren(CuratorFramework client, @Nullable ListingClients listings) {
		this.client = client;
		this.listings = listings;
	}

	/**
	 * Return how many children the node has, {@code -1} if it does not exist: one request.
	 */
	int count(String path) {
		try {
			Stat stat = this.client.checkExists().forPath(path);
			return (stat != null) ? stat.getNumChildren() : -1;
		}
		catch (Exception ex) {
			throw failure(path, ex);
		}
	}

	/**
	 * Return the children of a node that had {@code count} of them: one request.
	 * @param allowance the bytes a name may take in the reply, its 4-byte length included
	 */
	List<String> read(String path, int count, int allowance) {
		if (count <= 0) {
			return List.of();
		}
		long size = (long) count * allowance;
		int replyLimit = replyLimit();
		if (size * SHARE <= replyLimit) {
			return children(this.client, path);
		}
		if (this.listings == null) {
			throw new TooManyChildrenException(path, count, replyLimit);
		}
		int limit = (int) Math.min(MAX_LISTING_REPLY,
				Math.max(ZKClientConfig.CLIENT_MAX_PACKET_LENGTH_DEFAULT, size * SHARE));
		try (CuratorFramework listing = this.listings.newClient(limit)) {
			listing.start();
			int timeout = this.client.getZookeeperClient().getConnectionTimeoutMs();
			if (!listing.blockUntilConnected(timeout, TimeUnit.MILLISECONDS)) {
				throw new ZkLockException("Could not read " + path + ": its listing session did not connect within "
						+ timeout + " ms");
			}
			return children(listing, path);
		}
		catch (InterruptedException ex) {
			throw failure(path, ex);
		}
	}

	private int replyLimit() {
		try {
			return this.client.getZookeeperClient()
				.getZooKeeper()
				.getClientConfig()
				.getInt(ZKConfig.JUTE_MAXBUFFER, ZKClientConfig.CLIENT_MAX_PACKET_LENGTH_DEFAULT);
		}
		catch (Exception ex) {
			throw failure("the client's reply limit", ex);
		}
	}

	private static List<String> children(CuratorFramework client, String path) {
		try {
			return client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		catch (Exception ex) {
			throw failure(path, ex);
		}
	}

	static ZkLockException failure(String path, Exception ex) {
		if (ex instanceof InterruptedException) {
			Thread.currentThread().interrupt();
		}
		return new ZkLockException("Could not read " + path + " from ZooKeeper: " + ex, ex);
	}

}
