package dev.zklock.cluster;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zklock.ZkLockException;
import dev.zklock.lock.LockKeys;
import dev.zklock.lock.LockQueues;
import dev.zklock.lock.NodeOwner;

/**
 * Reads the whole cluster from ZooKeeper, from any instance: every lock key under the base path
 * with its queue, and every election group with its participants. Plain reads without watches:
 * listing keys costs one request, and each key one request for its children and one for each
 * lock node's data; an election group costs one request and one per participant.
 *
 * @since 0.2.0
 */
public class ClusterView {

	/**
	 * The most keys one listing reads, whatever it asks.
	 */
	public static final int MAX_KEYS = 1000;

	/**
	 * The most lock nodes read of one key; the rest of its queue is left out.
	 */
	public static final int MAX_NODES = 1000;

	/**
	 * Names under the lock base path that are not keys begin with this: no encoded key does.
	 */
	static final String RESERVED = "#";

	private final CuratorFramework client;

	private final String lockBasePath;

	private final @Nullable String leaderBasePath;

	/**
	 * Create a view.
	 * @param client the started client
	 * @param lockBasePath {@code zklock.lock.base-path}
	 * @param leaderBasePath {@code zklock.leader.base-path}, or {@code null} to show no elections
	 */
	public ClusterView(CuratorFramework client, String lockBasePath, @Nullable String leaderBasePath) {
		this.client = client;
		this.lockBasePath = ZKPaths.makePath(lockBasePath, "");
		this.leaderBasePath = (leaderBasePath != null) ? ZKPaths.makePath(leaderBasePath, "") : null;
	}

	/**
	 * Return the keys whose lock nodes exist now, in key order, with their queues.
	 * @param prefix only the keys that begin with it, {@code null} for all
	 * @param after only the keys after it (the last key of the page before), {@code null} from
	 * the first
	 * @param limit the most keys to return (at most {@link #MAX_KEYS})
	 * @return the keys, and whether more follow
	 */
	public Page keys(@Nullable String prefix, @Nullable String after, int limit) {
		int max = Math.max(1, Math.min(limit, MAX_KEYS));
		List<String> keys = new ArrayList<>();
		for (String name : children(this.lockBasePath)) {
			if (!name.startsWith(RESERVED)) {
				String key = LockKeys.decode(name);
				if ((prefix == null || key.startsWith(prefix)) && (after == null || key.compareTo(after) > 0)) {
					keys.add(key);
				}
			}
		}
		keys.sort(Comparator.naturalOrder());
		List<KeyQueue> queues = new ArrayList<>();
		for (String key : keys) {
			if (queues.size() == max) {
				return new Page(queues, true);
			}
			KeyQueue queue = key(key);
			if (!queue.nodes().isEmpty()) {
				queues.add(queue);
			}
		}
		return new Page(queues, false);
	}

	/**
	 * Return the queue of one key (empty when nobody holds or waits for it).
	 * @param key the key
	 * @return its queue
	 */
	public KeyQueue key(String key) {
		String keyPath = ZKPaths.makePath(this.lockBasePath, LockKeys.encode(key));
		List<String> ordered = LockQueues.ordered(children(keyPath));
		if (ordered.size() > MAX_NODES) {
			ordered = ordered.subList(0, MAX_NODES);
		}
		List<Boolean> granted = LockQueues.granted(ordered);
		List<LockNodeView> nodes = new ArrayList<>(ordered.size());
		for (int i = 0; i < ordered.size(); i++) {
			String name = ordered.get(i);
			Stat stat = new Stat();
			byte[] data = data(ZKPaths.makePath(keyPath, name), stat);
			if (data == null) {
				continue;
			}
			NodeOwner owner = NodeOwner.parse(data);
			nodes.add(new LockNodeView(name, (owner != null) ? owner.participant() : null,
					(owner != null) ? owner.call() : null, LockQueues.mode(name),
					(owner != null) ? owner.asked() : null, Instant.ofEpochMilli(stat.getCtime()), granted.get(i),
					Long.toHexString(stat.getEphemeralOwner())));
		}
		return new KeyQueue(key, nodes);
	}

	/**
	 * Return every election group under the leader base path, in name order.
	 * @return the groups
	 */
	public List<ElectionGroupView> elections() {
		if (this.leaderBasePath == null) {
			return List.of();
		}
		List<String> groups = new ArrayList<>(children(this.leaderBasePath));
		groups.sort(Comparator.naturalOrder());
		List<ElectionGroupView> views = new ArrayList<>();
		for (String group : groups) {
			if (views.size() == MAX_KEYS) {
				break;
			}
			views.add(election(group));
		}
		return views;
	}

	private ElectionGroupView election(String group) {
		String groupPath = ZKPaths.makePath(this.leaderBasePath, group);
		List<String> nodes = new ArrayList<>(children(groupPath));
		nodes.removeIf((name) -> !isElectionNode(name));
		nodes.sort(Comparator.comparing((String name) -> name.substring(name.length() - 10)));
		List<String> participants = new ArrayList<>();
		long epoch = -1;
		for (String name : nodes) {
			Stat stat = new Stat();
			byte[] data = data(ZKPaths.makePath(groupPath, name), stat);
			if (data == null) {
				continue;
			}
			if (participants.isEmpty()) {
				epoch = stat.getCzxid();
			}
			NodeOwner owner = NodeOwner.parse(data);
			participants.add((owner != null) ? owner.participant() : new String(data, StandardCharsets.UTF_8));
			if (participants.size() == MAX_NODES) {
				break;
			}
		}
		return new ElectionGroupView(group, participants, participants.isEmpty() ? null : participants.get(0), epoch);
	}

	private static boolean isElectionNode(String name) {
		return name.length() > 12 && name.substring(name.length() - 10).chars().allMatch(Character::isDigit)
				&& name.startsWith("n-", name.length() - 12);
	}

	private List<String> children(String path) {
		try {
			return this.client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		catch (Exception ex) {
			throw failure(path, ex);
		}
	}

	private byte @Nullable [] data(String path, Stat stat) {
		try {
			return this.client.getData().storingStatIn(stat).forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
		catch (Exception ex) {
			throw failure(path, ex);
		}
	}

	private static ZkLockException failure(String path, Exception ex) {
		if (ex instanceof InterruptedException) {
			Thread.currentThread().interrupt();
		}
		return new ZkLockException("Could not read " + path + " from ZooKeeper: " + ex, ex);
	}

	/**
	 * One page of keys.
	 *
	 * @param keys the keys, in order
	 * @param more whether keys follow the last one (ask again with it as {@code after})
	 */
	public record Page(List<KeyQueue> keys, boolean more) {

	}

}
