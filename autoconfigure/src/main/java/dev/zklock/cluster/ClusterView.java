package dev.zklock.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zklock.lock.LockKeys;
import dev.zklock.lock.LockQueues;
import dev.zklock.lock.NodeOwner;

/**
 * Reads the whole cluster from ZooKeeper, from any instance: every lock key under the base path
 * with its queue, and every election group with its participants. Plain reads without watches,
 * none of a reply the application's client cannot take ({@link BoundedChildren}): a node's
 * children are read after its {@code Stat}, on the application's session while they are few, on
 * a short-lived session of their own ({@link ListingClients}) when they are many. A page of keys
 * costs two requests for the base path, one for each key it looks at, and for each key shown one
 * more for its children and one for each of its lock nodes' data.
 *
 * @since 0.2.0
 */
public class ClusterView {

	/**
	 * The most keys one page shows, whatever it asks.
	 */
	public static final int MAX_KEYS = 1000;

	/**
	 * The most keys one page looks at, shown or found empty.
	 */
	public static final int MAX_LOOKED_AT = 2 * MAX_KEYS;

	/**
	 * The most lock nodes read of one key; the rest of its queue is left out.
	 */
	public static final int MAX_NODES = 1000;

	/**
	 * The most names a page reports as skipped.
	 */
	public static final int MAX_SKIPPED = 100;

	/**
	 * Names under the lock base path that are not keys begin with this: no encoded key does.
	 */
	static final String RESERVED = "#";

	/**
	 * The bytes allowed for a key's or a group's node name when sizing a list before reading it.
	 */
	static final int KEY_NAME_ALLOWANCE = 256;

	/**
	 * The bytes allowed for a lock or election node's name (some 60 characters) likewise.
	 */
	static final int NODE_NAME_ALLOWANCE = 128;

	private final BoundedChildren children;

	private final CuratorFramework client;

	private final String lockBasePath;

	private final @Nullable Elections elections;

	/**
	 * Create a view that reads every list on the application's session, and refuses one too long
	 * for it ({@link TooManyChildrenException}).
	 * @param client the started client
	 * @param lockBasePath {@code zklock.lock.base-path}
	 * @param leaderBasePath {@code zklock.leader.base-path}, or {@code null} to show no elections
	 */
	public ClusterView(CuratorFramework client, String lockBasePath, @Nullable String leaderBasePath) {
		this(client, lockBasePath, leaderBasePath, null);
	}

	/**
	 * Create a view.
	 * @param client the started client
	 * @param lockBasePath {@code zklock.lock.base-path}
	 * @param leaderBasePath {@code zklock.leader.base-path}, or {@code null} to show no elections
	 * @param listings makes the sessions that read lists too long for the application's, or
	 * {@code null} to refuse such lists
	 */
	public ClusterView(CuratorFramework client, String lockBasePath, @Nullable String leaderBasePath,
			@Nullable ListingClients listings) {
		this.client = client;
		this.children = new BoundedChildren(client, listings);
		this.lockBasePath = ZKPaths.makePath(lockBasePath, "");
		this.elections = (leaderBasePath != null)
				? new Elections(client, this.children, ZKPaths.makePath(leaderBasePath, "")) : null;
	}

	/**
	 * Return the keys whose lock nodes exist now, in key order, with their queues. A key with no
	 * lock node is looked at (one request) and not shown.
	 * @param prefix only the keys that begin with it, {@code null} for all
	 * @param after only the keys after it ({@link Page#next()} of the page before), {@code null}
	 * from the first
	 * @param limit the most keys to show (at most {@link #MAX_KEYS})
	 * @return the keys, and where the next page starts
	 */
	public Page keys(@Nullable String prefix, @Nullable String after, int limit) {
		int max = Math.max(1, Math.min(limit, MAX_KEYS));
		List<String> skipped = new ArrayList<>();
		List<String> candidates = new ArrayList<>();
		for (String name : this.children.read(this.lockBasePath, this.children.count(this.lockBasePath),
				KEY_NAME_ALLOWANCE)) {
			String key = keyOf(name);
			if (key == null) {
				if (!name.startsWith(RESERVED) && skipped.size() < MAX_SKIPPED) {
					skipped.add(name);
				}
			}
			else if ((prefix == null || key.startsWith(prefix)) && (after == null || key.compareTo(after) > 0)) {
				candidates.add(key);
			}
		}
		candidates.sort(Comparator.naturalOrder());
		List<KeyQueue> shown = new ArrayList<>();
		for (int looked = 0; looked < candidates.size(); looked++) {
			if (looked == MAX_LOOKED_AT) {
				return new Page(shown, true, candidates.get(looked - 1), skipped);
			}
			String key = candidates.get(looked);
			String keyPath = keyPath(key);
			int count = this.children.count(keyPath);
			if (count > 0 && shown.size() == max) {
				return new Page(shown, true, shown.get(max - 1).key(), skipped);
			}
			KeyQueue queue = queue(key, keyPath, count);
			if (!queue.nodes().isEmpty()) {
				shown.add(queue);
			}
		}
		return new Page(shown, false, null, skipped);
	}

	/**
	 * Return the queue of one key (empty when nobody holds or waits for it).
	 * @param key the key
	 * @return its queue
	 */
	public KeyQueue key(String key) {
		String keyPath = keyPath(key);
		return queue(key, keyPath, this.children.count(keyPath));
	}

	private KeyQueue queue(String key, String keyPath, int count) {
		if (count <= 0) {
			return new KeyQueue(key, List.of());
		}
		List<String> ordered = LockQueues.ordered(this.children.read(keyPath, count, NODE_NAME_ALLOWANCE));
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
		return (this.elections != null) ? this.elections.groups() : List.of();
	}

	private String keyPath(String key) {
		return ZKPaths.makePath(this.lockBasePath, LockKeys.encode(key));
	}

	/**
	 * Return the key a node name under the base path stands for, or {@code null} when no key
	 * is encoded as that name (a reserved name, or one written by something else).
	 */
	private static @Nullable String keyOf(String name) {
		if (name.startsWith(RESERVED)) {
			return null;
		}
		try {
			String key = LockKeys.decode(name);
			return (!key.isEmpty() && LockKeys.encode(key).equals(name)) ? key : null;
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private byte @Nullable [] data(String path, Stat stat) {
		return data(this.client, path, stat);
	}

	static byte @Nullable [] data(CuratorFramework client, String path, Stat stat) {
		try {
			return client.getData().storingStatIn(stat).forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
		catch (Exception ex) {
			throw BoundedChildren.failure(path, ex);
		}
	}

	/**
	 * One page of keys.
	 *
	 * @param keys the keys with lock nodes, in order
	 * @param more whether a key with lock nodes follows the last one shown, or the page looked
	 * at its {@value #MAX_LOOKED_AT} keys before it could tell
	 * @param next the key to ask the next page {@code after}, {@code null} when nothing follows
	 * @param skipped names under the base path that encode no key (written by something else),
	 * left out; at most {@value #MAX_SKIPPED}
	 */
	public record Page(List<KeyQueue> keys, boolean more, @Nullable String next, List<String> skipped) {

	}

}
