package dev.zklock.lock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * A model of one ZooKeeper server (or an ensemble that never loses its quorum) as the lock core
 * relies on it, and no more: one global zxid that grows by one per transaction (a {@code multi},
 * a session's expiry with all its ephemeral nodes, and a failed write are one transaction each);
 * {@code czxid}, {@code mzxid}, {@code pzxid} and {@code cversion} as ZooKeeper moves them
 * ({@code pzxid} on a child's create and delete, deletes at session expiry included, never on a
 * child's data change; {@code cversion} on a child's create only); sequence numbers taken from the
 * parent's {@code cversion}, so not reused and not advanced by deletes; ephemeral nodes that go
 * with their session; container nodes removed by a reaper once empty after having had a child;
 * one-shot watches, fired into the session's stream of replies in the order of the changes.
 * A zxid is an epoch (high 32 bits) and a counter: a run may start late in an epoch, a new epoch
 * begins when the counter would roll over (ZooKeeper elects a leader then) and when a run elects
 * one ({@link #newEpoch()}), so that fencing tokens meet every boundary of the zxid.
 * {@link SimulatorConformanceTests} runs the same operations here and on a real server.
 */
final class SimServer {

	static final long FIRST_SESSION = 0x100000001L;

	private final TreeMap<String, Node> nodes = new TreeMap<>();

	private final Map<Long, Session> sessions = new LinkedHashMap<>();

	private final Map<String, List<Watch>> childWatches = new HashMap<>();

	private final Map<String, List<Watch>> dataWatches = new HashMap<>();

	private long zxid;

	private long nextSession = FIRST_SESSION;

	private int firstKeyCversion;

	private final Set<String> keysCreated = new HashSet<>();

	SimServer() {
		Node root = new Node("/", 0, false, false);
		this.nodes.put("/", root);
	}

	long zxid() {
		return this.zxid;
	}

	/**
	 * Go on from the given zxid, as an ensemble that has run for a while.
	 */
	void startAt(long zxid) {
		this.zxid = zxid;
	}

	/**
	 * Start every key node, when first created, with the given {@code cversion}, as a key that
	 * has been used that many times (its node kept by others meanwhile): a value just below
	 * {@link Integer#MAX_VALUE} lets a run reach the end of its sequence counter.
	 */
	void startKeysAt(int cversion) {
		this.firstKeyCversion = cversion;
	}

	/**
	 * A new leader was elected: the next transaction is the first of a new epoch.
	 */
	void newEpoch() {
		this.zxid = ((this.zxid >>> 32) + 1) << 32;
	}

	private void advance() {
		this.zxid++;
		if ((this.zxid & 0xFFFF_FFFFL) == 0xFFFF_FFFFL) {
			// ZooKeeper elects a leader rather than let the counter roll over.
			newEpoch();
			this.zxid++;
		}
	}

	/**
	 * Start a session (a transaction of its own).
	 * @param events where its watch events go
	 */
	Session openSession(WatchSink events) {
		advance();
		Session session = new Session(this.nextSession++, events);
		this.sessions.put(session.id, session);
		return session;
	}

	/**
	 * End a session at its expiry, or at close: one transaction deletes its ephemeral nodes.
	 */
	void expire(Session session) {
		if (!session.alive) {
			return;
		}
		session.alive = false;
		advance();
		List<String> owned = new ArrayList<>();
		for (Node node : this.nodes.values()) {
			if (node.owner == session.id) {
				owned.add(node.path);
			}
		}
		Collections.reverse(owned);
		for (String path : owned) {
			removeNode(path);
		}
		dropWatches(session);
	}

	/**
	 * Forget every watch of a session, as a server does for a connection that is gone when the
	 * client does not set its watches again.
	 */
	void dropWatches(Session session) {
		dropWatches(session, this.childWatches);
		dropWatches(session, this.dataWatches);
	}

	private static void dropWatches(Session session, Map<String, List<Watch>> watches) {
		watches.values().forEach((list) -> list.removeIf((watch) -> watch.session == session));
	}

	Result create(Session session, String path, Kind kind) {
		if (!session.alive) {
			return Result.of(Code.SESSIONEXPIRED);
		}
		advance();
		Code check = canCreate(path, kind);
		if (check != Code.OK) {
			return Result.of(check);
		}
		String created = createNode(session, path, kind);
		return Result.created(created, this.nodes.get(created).stat());
	}

	/**
	 * The lock core's first-use transaction: the key node as a container and a lock node under
	 * it (ephemeral sequential); the answer carries the key node's stat.
	 */
	Result createKeyAndLockNode(Session session, String keyPath, String lockNodePath) {
		if (!session.alive) {
			return Result.of(Code.SESSIONEXPIRED);
		}
		advance();
		Code check = canCreate(keyPath, Kind.CONTAINER);
		if (check != Code.OK) {
			return Result.of(check);
		}
		createNode(session, keyPath, Kind.CONTAINER);
		if (this.keysCreated.add(keyPath)) {
			this.nodes.get(keyPath).cversion = this.firstKeyCversion;
		}
		String lockNode = createNode(session, lockNodePath, Kind.EPHEMERAL_SEQUENTIAL);
		return Result.created(lockNode, this.nodes.get(keyPath).stat());
	}

	/**
	 * Keep a created node's data (the simulator reads it back only for the elections).
	 */
	Result withData(Result created, byte[] data) {
		if (created.code() == Code.OK && created.path() != null) {
			Node node = this.nodes.get(created.path());
			if (node != null) {
				node.data = data.clone();
			}
		}
		return created;
	}

	Result removeWatches(Session session, String path) {
		if (!session.alive) {
			return Result.of(Code.SESSIONEXPIRED);
		}
		for (Map<String, List<Watch>> watches : List.of(this.childWatches, this.dataWatches)) {
			List<Watch> list = watches.get(path);
			if (list != null) {
				list.removeIf((watch) -> watch.session == session);
			}
		}
		return Result.of(Code.OK);
	}

	Result getChildren(Session session, String path, @Nullable Runnable watch) {
		if (!session.alive) {
			return Result.of(Code.SESSIONEXPIRED);
		}
		Node node = this.nodes.get(path);
		if (node == null) {
			return Result.of(Code.NONODE);
		}
		if (watch != null) {
			this.childWatches.computeIfAbsent(path, (p) -> new ArrayList<>()).add(new Watch(session, watch));
		}
		return new Result(Code.OK, path, node.stat(), List.copyOf(node.children));
	}

	Result exists(Session session, String path, @Nullable Runnable watch) {
		if (!session.alive) {
			return Result.of(Code.SESSIONEXPIRED);
		}
		if (watch != null) {
			this.dataWatches.computeIfAbsent(path, (p) -> new ArrayList<>()).add(new Watch(session, watch));
		}
		Node node = this.nodes.get(path);
		return (node != null) ? new Result(Code.OK, path, node.stat(), List.of()) : Result.of(Code.NONODE);
	}

	Result delete(Session session, String path) {
		if (!session.alive) {
			return Result.of(Code.SESSIONEXPIRED);
		}
		advance();
		Code check = canDelete(path, 0);
		if (check != Code.OK) {
			return Result.of(check);
		}
		removeNode(path);
		return Result.of(Code.OK);
	}

	/**
	 * The release of a key's last lock node: a transaction that deletes the lock node and then
	 * the key node, failing whole at the first delete that fails.
	 */
	Result deleteLockAndKeyNode(Session session, String lockNodePath, String keyPath) {
		if (!session.alive) {
			return Result.of(Code.SESSIONEXPIRED);
		}
		advance();
		Code check = canDelete(lockNodePath, 0);
		if (check == Code.OK) {
			check = canDelete(keyPath, LockNodes.parent(lockNodePath).equals(keyPath) ? 1 : 0);
		}
		if (check != Code.OK) {
			return Result.of(check);
		}
		removeNode(lockNodePath);
		removeNode(keyPath);
		return Result.of(Code.OK);
	}

	/**
	 * Return what a delete of a node would answer, once the given number of its children went
	 * before it in the same transaction.
	 */
	private Code canDelete(String path, int childrenGone) {
		Node node = this.nodes.get(path);
		if (node == null) {
			return Code.NONODE;
		}
		return (node.children.size() > childrenGone) ? Code.NOTEMPTY : Code.OK;
	}

	Result setData(Session session, String path) {
		if (!session.alive) {
			return Result.of(Code.SESSIONEXPIRED);
		}
		advance();
		Node node = this.nodes.get(path);
		if (node == null) {
			return Result.of(Code.NONODE);
		}
		node.mzxid = this.zxid;
		node.version++;
		fire(this.dataWatches, path);
		return new Result(Code.OK, path, node.stat(), List.of());
	}

	/**
	 * What ZooKeeper's container manager does at each check: delete every container node that
	 * has had children and has none now, one transaction each.
	 */
	int reapContainers() {
		List<String> empty = new ArrayList<>();
		for (Node node : this.nodes.values()) {
			if (node.container && node.cversion > 0 && node.children.isEmpty()) {
				empty.add(node.path);
			}
		}
		for (String path : empty) {
			advance();
			removeNode(path);
		}
		return empty.size();
	}

	@Nullable Node node(String path) {
		return this.nodes.get(path);
	}

	boolean isAlive(long sessionId) {
		Session session = this.sessions.get(sessionId);
		return session != null && session.alive;
	}

	/**
	 * Return the ephemeral nodes under a path, for the checks.
	 */
	List<Node> ephemeralsUnder(String path) {
		List<Node> found = new ArrayList<>();
		for (Node node : this.nodes.tailMap(path, true).values()) {
			if (!node.path.startsWith(path)) {
				break;
			}
			if (node.owner != 0) {
				found.add(node);
			}
		}
		return found;
	}

	private Code canCreate(String path, Kind kind) {
		String parentPath = LockNodes.parent(path);
		Node parent = this.nodes.get(parentPath);
		if (parent == null) {
			return Code.NONODE;
		}
		if (parent.owner != 0) {
			return Code.NOCHILDRENFOREPHEMERALS;
		}
		if (this.nodes.containsKey(kind.sequential ? sequentialName(path, parent) : path)) {
			return Code.NODEEXISTS;
		}
		return Code.OK;
	}

	private String createNode(Session session, String path, Kind kind) {
		Node parent = this.nodes.get(LockNodes.parent(path));
		String created = kind.sequential ? sequentialName(path, parent) : path;
		Node node = new Node(created, this.zxid, kind == Kind.CONTAINER, false);
		node.owner = kind.ephemeral ? session.id : 0;
		this.nodes.put(created, node);
		parent.children.add(LockNodes.name(created));
		// ZooKeeper (3.6 to 3.9) sends the parent's cversion + 1 in the transaction, wrapped to
		// a negative int past the end, and its data tree takes it only when it is higher
		// (DataTree.createNode): the cversion stays at Integer.MAX_VALUE from then on.
		if (parent.cversion + 1 > parent.cversion) {
			parent.cversion++;
		}
		parent.pzxid = this.zxid;
		fire(this.dataWatches, created);
		fire(this.childWatches, parent.path);
		return created;
	}

	/**
	 * Return the name ZooKeeper gives a sequential node: the path followed by the parent's
	 * {@code cversion} ({@code PrepRequestProcessor}: {@code %010d}).
	 */
	private static String sequentialName(String path, Node parent) {
		return path + String.format(Locale.ENGLISH, "%010d", parent.cversion);
	}

	private void removeNode(String path) {
		Node node = this.nodes.remove(path);
		Node parent = this.nodes.get(LockNodes.parent(path));
		parent.children.remove(LockNodes.name(path));
		// ZooKeeper (3.9) moves the parent's pzxid on a delete, not its cversion: sequence
		// numbers count the parent's creates only.
		parent.pzxid = this.zxid;
		fire(this.dataWatches, path);
		fire(this.childWatches, path);
		fire(this.childWatches, parent.path);
		node.deleted = true;
	}

	private void fire(Map<String, List<Watch>> watches, String path) {
		List<Watch> fired = watches.remove(path);
		if (fired != null) {
			for (Watch watch : fired) {
				if (watch.session.alive) {
					watch.session.events.fired(watch.callback);
				}
			}
		}
	}

	enum Kind {

		PERSISTENT(false, false), CONTAINER(false, false), EPHEMERAL_SEQUENTIAL(true, true);

		private final boolean ephemeral;

		private final boolean sequential;

		Kind(boolean ephemeral, boolean sequential) {
			this.ephemeral = ephemeral;
			this.sequential = sequential;
		}

	}

	/**
	 * Where a session's watch events go: into its connection's stream, in order with replies.
	 */
	@FunctionalInterface
	interface WatchSink {

		void fired(Runnable callback);

	}

	static final class Session {

		final long id;

		final WatchSink events;

		boolean alive = true;

		Session(long id, WatchSink events) {
			this.id = id;
			this.events = events;
		}

	}

	private record Watch(Session session, Runnable callback) {
	}

	static final class Node {

		final String path;

		final long czxid;

		long mzxid;

		long pzxid;

		int cversion;

		int version;

		long owner;

		final boolean container;

		boolean deleted;

		final TreeSet<String> children = new TreeSet<>();

		byte[] data = new byte[0];

		Node(String path, long czxid, boolean container, boolean deleted) {
			this.path = path;
			this.czxid = czxid;
			this.mzxid = czxid;
			this.pzxid = czxid;
			this.container = container;
			this.deleted = deleted;
		}

		ZooKeeperPort.NodeStat stat() {
			return new ZooKeeperPort.NodeStat(this.czxid, this.mzxid, this.pzxid, this.owner);
		}

	}

	/**
	 * A request's outcome at the server.
	 */
	record Result(Code code, @Nullable String path, ZooKeeperPort.@Nullable NodeStat stat, List<String> children) {

		static Result of(Code code) {
			return new Result(code, null, null, List.of());
		}

		static Result created(String path, ZooKeeperPort.NodeStat stat) {
			return new Result(Code.OK, path, stat, List.of());
		}

	}

}
