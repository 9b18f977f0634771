package dev.zklock.leader;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.WatcherRemoveCuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The ZooKeeper nodes of one group's election: one ephemeral sequential child per participant
 * under the group's node, holding the participant id; the lowest sequence number leads.
 */
final class ElectionNodes {

	private static final String NODE_PREFIX = "n-";

	private static final int SEQUENCE_LENGTH = 10;

	private final CuratorFramework client;

	private final WatcherRemoveCuratorFramework watching;

	private final String groupPath;

	ElectionNodes(CuratorFramework client, String groupPath) {
		this.client = client;
		this.watching = client.newWatcherRemoveCuratorFramework();
		this.groupPath = groupPath;
	}

	String groupPath() {
		return this.groupPath;
	}

	/**
	 * Create this participant's node, in protected mode so that a create whose reply was lost
	 * is found again rather than leaked. Parents are created as container nodes. A node named
	 * past the end of the group node's sequence counter (ZooKeeper names every create from
	 * there {@code 2147483647}, or a negative number) would not be in election order: it is
	 * deleted, the group node with it if no other participant is left, and the join fails.
	 * <p>
	 * Within the call, a retry after a lost connection first looks for the node by its
	 * protected id. When the call fails with its outcome unknown (its retries spent on a lost
	 * connection, or interrupted), Curator looks for that node in the background once the
	 * connection is back and deletes it, and the next check creates a new node: until the
	 * deletion, the orphan sorts before it, the group may have no leader and the participants
	 * list this instance twice; once it is deleted, the watch on it starts a new check.
	 */
	String create(String participantId) throws Exception {
		String created = this.client.create()
			.creatingParentContainersIfNeeded()
			.withProtection()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath(ZKPaths.makePath(this.groupPath, NODE_PREFIX), participantId.getBytes(StandardCharsets.UTF_8));
		if (isPastEnd(name(created))) {
			deleteGuaranteed(created);
			try {
				this.client.delete().forPath(this.groupPath);
			}
			catch (KeeperException.NotEmptyException | KeeperException.NoNodeException ex) {
				// Participants joined before the end are left: the group node stays.
			}
			throw new IllegalStateException("Election group node " + this.groupPath
					+ " has used up its sequence numbers (its cversion reached " + Integer.MAX_VALUE
					+ "): a participant can join once the group node is created again, when no participant is left");
		}
		return created;
	}

	/**
	 * Return the names of the participants' nodes, in election order.
	 */
	List<String> children() throws Exception {
		List<String> children;
		try {
			children = new ArrayList<>(this.client.getChildren().forPath(this.groupPath));
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		children.removeIf((child) -> !isElectionNode(child));
		children.sort(Comparator.comparingLong(ElectionNodes::sequence));
		return children;
	}

	/**
	 * Return the node's stat and leave a watch on it, whether or not it exists.
	 */
	@Nullable Stat watch(String path, Watcher watcher) throws Exception {
		return this.watching.checkExists().usingWatcher(watcher).forPath(path);
	}

	/**
	 * Return the stat of a participant's node, or {@code null} if the node is gone.
	 */
	@Nullable Stat stat(String name) throws Exception {
		return this.client.checkExists().forPath(path(name));
	}

	/**
	 * Return the participant id stored in a node, or {@code null} if the node is gone.
	 */
	@Nullable String participantId(String name) throws Exception {
		try {
			return new String(this.client.getData().forPath(path(name)), StandardCharsets.UTF_8);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	/**
	 * Return the participant ids, in election order.
	 */
	List<String> participantIds(int limit) throws Exception {
		List<String> ids = new ArrayList<>();
		for (String name : children()) {
			if (ids.size() == limit) {
				break;
			}
			String id = participantId(name);
			if (id != null) {
				ids.add(id);
			}
		}
		return ids;
	}

	/**
	 * Return the creation zxid of the leader's node.
	 */
	OptionalLong leaderCzxid() throws Exception {
		for (String name : children()) {
			Stat stat = stat(name);
			if (stat != null) {
				return OptionalLong.of(stat.getCzxid());
			}
		}
		return OptionalLong.empty();
	}

	void delete(String path) throws Exception {
		try {
			this.client.delete().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			// Already gone.
		}
	}

	/**
	 * Delete the node, and if that fails keep trying in the background for as long as the
	 * client is open.
	 */
	void deleteGuaranteed(String path) throws Exception {
		try {
			this.client.delete().guaranteed().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			// Already gone.
		}
	}

	/**
	 * Delete the node in the background, trying again for as long as the client is open.
	 */
	void deleteInBackground(String path) {
		try {
			this.client.delete().guaranteed().inBackground().forPath(path);
		}
		catch (Exception ex) {
			// Only thrown for a background operation that could not be queued: the client is closed.
		}
	}

	long sessionId() throws Exception {
		return this.client.getZookeeperClient().getZooKeeper().getSessionId();
	}

	boolean isConnected() {
		return this.client.getZookeeperClient().isConnected();
	}

	void removeWatchers() {
		this.watching.removeWatchers();
	}

	String path(String name) {
		return ZKPaths.makePath(this.groupPath, name);
	}

	static String name(String path) {
		return ZKPaths.getNodeFromPath(path);
	}

	private static boolean isElectionNode(String name) {
		int start = name.length() - SEQUENCE_LENGTH;
		return start >= NODE_PREFIX.length() && name.startsWith(NODE_PREFIX, start - NODE_PREFIX.length())
				&& name.substring(start).chars().allMatch(Character::isDigit);
	}

	private static boolean isPastEnd(String name) {
		String sequence = name.substring(name.lastIndexOf(NODE_PREFIX) + NODE_PREFIX.length());
		return sequence.length() != SEQUENCE_LENGTH || !sequence.chars().allMatch(Character::isDigit)
				|| sequence.equals(Integer.toString(Integer.MAX_VALUE));
	}

	private static long sequence(String name) {
		return Long.parseLong(name.substring(name.length() - SEQUENCE_LENGTH));
	}

}
