package dev.zklock.benchmarks.library;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.benchmarks.library.TwoTransactionsCycle.Node;
import dev.zklock.benchmarks.library.TwoTransactionsCycle.Sending;
import dev.zklock.lock.LockSettings;

/**
 * A library under test, named in benchmark parameters by {@link #id()}. Each keeps its nodes
 * under its own path, so that libraries never see each other's locks.
 */
public enum Library implements Subject.Described {

	/** The floor: the least work of a lock cycle, without any exclusion. */
	FLOOR("floor", "floor: create + delete", false,
			"create EPHEMERAL_SEQUENTIAL, then delete, both synchronous; excludes nobody"),

	/**
	 * zklock's requests (create, read, delete) without a lock, every reply handed to the caller by
	 * ZooKeeper's event thread, as the core has them today: a yardstick for the uncontended call.
	 */
	SHAPE_EVENT_THREAD("shape-event-thread", "zklock's requests, replies via the event thread (no lock)", false,
			"background create, getChildren sent behind it, background delete; the caller waits on futures the "
					+ "callbacks complete on ZooKeeper's event thread; excludes nobody"),

	/**
	 * zklock's requests without a lock, the caller waiting on the read and the delete itself, as
	 * the floor waits on its requests: what a core that collects its own replies could reach.
	 */
	SHAPE_CALLER_WAITS("shape-caller-waits", "zklock's requests, the caller waits itself (no lock)", false,
			"background create named with an id, synchronous getChildren sent behind it (finds the node by the id), "
					+ "synchronous delete; excludes nobody"),

	/**
	 * Two requests a cycle, both transactions, every reply handed to the caller by ZooKeeper's
	 * event thread: the key node and the lock node created together, as zklock's first use of a
	 * key does, and deleted together. What an uncontended call could reach if its release took the
	 * key node away with the last lock node, so that the next call is a first use again.
	 */
	SHAPE_TWO_MULTIS("shape-two-multis", "key and lock node created and deleted together (no lock)", false,
			"background multi(create the key's container, create EPHEMERAL_SEQUENTIAL under it), then background "
					+ "multi(delete that node, delete the key's container); the caller waits on futures the callbacks "
					+ "complete on ZooKeeper's event thread; excludes nobody"),

	/**
	 * The same two transactions sent asynchronously on the client's ZooKeeper handle, without
	 * Curator's builders: what Curator's background machinery costs on top of the requests.
	 */
	SHAPE_TWO_MULTIS_HANDLE("shape-two-multis-handle", "the same, on the ZooKeeper handle (no lock)", false,
			"as shape-two-multis, sent with ZooKeeper.multi(ops, callback) on the client's handle; replies via the "
					+ "event thread; excludes nobody"),

	/**
	 * The same two transactions sent synchronously on the client's ZooKeeper handle: the caller
	 * wakes on each reply itself, as the floor's caller does.
	 */
	SHAPE_TWO_MULTIS_SYNC("shape-two-multis-sync", "the same, synchronous on the handle (no lock)", false,
			"as shape-two-multis, sent with ZooKeeper.multi(ops) on the client's handle; the caller waits on each "
					+ "reply itself; excludes nobody"),

	/**
	 * The same synchronous transactions with the lock node zklock makes: named as zklock names it
	 * (a protected id of its own and Curator's read-write lock marker) and holding the owner data
	 * zklock writes. What is left between it and zklock is the core's own work.
	 */
	SHAPE_TWO_MULTIS_NAMED("shape-two-multis-named", "the same, zklock's node name and data (no lock)", false,
			"as shape-two-multis-sync, the lock node named _c_<random id>-__WRIT__ and holding zklock's owner data "
					+ "(participant, mode, asked); excludes nobody"),

	/**
	 * The named transactions with a shorter id in the node's name: what a node format with 64
	 * random bits in place of the UUID would gain.
	 */
	SHAPE_TWO_MULTIS_SHORT_ID("shape-two-multis-short-id", "the same, a 16-digit id in the name (no lock)", false,
			"as shape-two-multis-named, the lock node named _c_<16 hex digits>-__WRIT__; excludes nobody"),

	/**
	 * The named transactions without the owner data: what leaving the data out would gain.
	 */
	SHAPE_TWO_MULTIS_NO_DATA("shape-two-multis-no-data", "the same, zklock's node name, no data (no lock)", false,
			"as shape-two-multis-named, the lock node holding no data; excludes nobody"),

	/**
	 * The named transactions with both: the shorter id and no owner data.
	 */
	SHAPE_TWO_MULTIS_SHORT_ID_NO_DATA("shape-two-multis-short-id-no-data",
			"the same, a 16-digit id in the name, no data (no lock)", false,
			"as shape-two-multis-short-id, the lock node holding no data; excludes nobody"),

	/**
	 * Curator's recipes used directly, one instance per key shared by the JVM's threads, as Spring
	 * Integration's registry uses them: the baseline of most workloads.
	 */
	CURATOR("curator", "Curator", false, "InterProcessMutex.acquire(30, SECONDS) / release(), one instance per key "
			+ "shared by the JVM's threads (as Spring Integration uses it; every release wakes every thread of the JVM "
			+ "waiting on that instance); shared: InterProcessReadWriteLock.readLock(); skip: acquire(0, MILLISECONDS)"),

	/**
	 * Curator's {@code InterProcessMutex} used directly, one instance per key and thread: the
	 * strongest way to use it under contention, since a release wakes only the thread whose node
	 * comes next.
	 */
	CURATOR_PER_THREAD("curator-per-thread", "Curator (a mutex per thread)", false,
			"InterProcessMutex.acquire(30, SECONDS) / release(), one instance per key and thread (each waiting thread "
					+ "watches its own predecessor: a release wakes only the next one); token: none, the plain cycle"),

	/** Spring Integration's lock registry. */
	SPRING_INTEGRATION("spring-integration", "Spring Integration", false,
			"ZookeeperLockRegistry.obtain(key).lock() / unlock()"),

	/** ShedLock's Curator provider, the usual way to skip a scheduled job running elsewhere. */
	SHEDLOCK("shedlock", "ShedLock", false, "DefaultLockingTaskExecutor.executeWithLock(task, config) with "
			+ "ZookeeperCuratorLockProvider, lockAtMostFor 30 min, lockAtLeastFor 0"),

	/** zklock's programmatic API with the default lock settings: local handoff, nothing kept. */
	ZKLOCK("zklock", "zklock ZkLockTemplate (defaults: handoff, keep off)", true,
			"ZkLockTemplate.execute(key, callback), default wait 30 s, " + ZkLockLocks.describe(ZkLockLocks.DEFAULTS)
					+ "; shared: execute(key, SHARED, null, callback); skip: tryExecute(key, EXCLUSIVE, ZERO, "
					+ "callback); token: lock.fencingToken() in the callback"),

	/** zklock's programmatic API with a lock node per call, as its first version had. */
	ZKLOCK_PER_CALL("zklock-per-call", "zklock ZkLockTemplate (PER_CALL: node per call)", true,
			"as zklock, " + ZkLockLocks.describe(ZkLockLocks.PER_CALL)),

	/** zklock's programmatic API keeping idle locks for a second. */
	ZKLOCK_KEEP("zklock-keep", "zklock ZkLockTemplate (handoff, keep idle 1 s)", true,
			"as zklock, " + ZkLockLocks.describe(ZkLockLocks.KEEP)),

	/**
	 * zklock's programmatic API with the default lock settings, its nodes named as Curator's
	 * {@code InterProcessMutex} names its own ({@code zklock.lock.node-names=mutex}).
	 */
	ZKLOCK_MUTEX_NAMES("zklock-mutex-names", "zklock ZkLockTemplate (defaults, node-names=mutex)", true,
			"as zklock, " + ZkLockLocks.describe(ZkLockLocks.MUTEX_NAMES)),

	/** zklock's annotation, on a bean of a Spring Boot application. */
	ZKLOCKED("zklocked", "zklock @ZkLocked (defaults: handoff, keep off)", true,
			"@ZkLocked(\"#key\") on a bean method, auto-configured, default wait 30 s, zklock.lock.handoff.* and "
					+ "zklock.lock.keep.* left at their defaults: " + ZkLockLocks.describe(ZkLockLocks.DEFAULTS));

	/** The wait for a lock, for the libraries that take one: zklock's default. */
	public static final Duration WAIT_TIME = Duration.ofSeconds(30);

	private static final String BASE_PATH = "/benchmarks/";

	private final Subject subject;

	Library(String id, String label, boolean zkLock, String usage) {
		this.subject = new Subject(id, label, usage, zkLock);
	}

	/**
	 * Return the library named by a benchmark parameter.
	 * @param id the parameter value
	 * @return the library
	 */
	public static Library of(String id) {
		return Subject.find(values(), id);
	}

	@Override
	public Subject subject() {
		return this.subject;
	}

	/**
	 * Return the library's exclusive locks.
	 * @param client the client to use
	 * @return the locks
	 * @throws UnsupportedOperationException if the library has none
	 */
	public ExclusiveLocks exclusive(CuratorFramework client) {
		return switch (this) {
			case FLOOR -> new FloorCycle(client, basePath());
			case SHAPE_EVENT_THREAD -> new RequestShapeCycle(client, basePath(), false);
			case SHAPE_CALLER_WAITS -> new RequestShapeCycle(client, basePath(), true);
			case SHAPE_TWO_MULTIS -> twoTransactions(client, Sending.CURATOR, Node.BARE);
			case SHAPE_TWO_MULTIS_HANDLE -> twoTransactions(client, Sending.HANDLE_ASYNC, Node.BARE);
			case SHAPE_TWO_MULTIS_SYNC -> twoTransactions(client, Sending.HANDLE_SYNC, Node.BARE);
			case SHAPE_TWO_MULTIS_NAMED -> twoTransactions(client, Sending.HANDLE_SYNC, Node.ZKLOCKS);
			case SHAPE_TWO_MULTIS_SHORT_ID -> twoTransactions(client, Sending.HANDLE_SYNC, Node.ZKLOCKS_SHORT_ID);
			case SHAPE_TWO_MULTIS_NO_DATA -> twoTransactions(client, Sending.HANDLE_SYNC, Node.ZKLOCKS_NO_DATA);
			case SHAPE_TWO_MULTIS_SHORT_ID_NO_DATA ->
				twoTransactions(client, Sending.HANDLE_SYNC, Node.ZKLOCKS_SHORT_ID_NO_DATA);
			case CURATOR, CURATOR_PER_THREAD -> curator(client);
			case SPRING_INTEGRATION -> new SpringIntegrationLocks(client, basePath());
			case ZKLOCK, ZKLOCK_PER_CALL, ZKLOCK_KEEP, ZKLOCK_MUTEX_NAMES -> zkLock(client);
			case ZKLOCKED -> new ZkLockedLocks(client, basePath());
			default -> throw unsupported("exclusive locks");
		};
	}

	/**
	 * Return the library's shared locks.
	 * @param client the client to use
	 * @return the locks
	 * @throws UnsupportedOperationException if the library has none
	 */
	public SharedLocks shared(CuratorFramework client) {
		return switch (this) {
			case CURATOR -> curator(client);
			case ZKLOCK -> zkLock(client);
			default -> throw unsupported("shared locks");
		};
	}

	/**
	 * Return the library's locks for jobs skipped where the lock is taken.
	 * @param client the client to use
	 * @return the locks
	 * @throws UnsupportedOperationException if the library has none
	 */
	public SkippingLocks skipping(CuratorFramework client) {
		return switch (this) {
			case CURATOR -> curator(client);
			case SHEDLOCK -> new ShedLockLocks(client, basePath());
			case ZKLOCK -> zkLock(client);
			default -> throw unsupported("skip-if-locked locks");
		};
	}

	private TwoTransactionsCycle twoTransactions(CuratorFramework client, Sending sending, Node node) {
		return new TwoTransactionsCycle(client, basePath(), sending, node);
	}

	private CuratorLocks curator(CuratorFramework client) {
		return new CuratorLocks(client, basePath(), WAIT_TIME.toSeconds(), this == CURATOR_PER_THREAD);
	}

	/**
	 * Return the library's locks that ask for a fencing token in every locked call.
	 * @param client the client to use
	 * @return the locks
	 * @throws UnsupportedOperationException if the library has none
	 */
	public FencedLocks fenced(CuratorFramework client) {
		return switch (this) {
			case CURATOR, CURATOR_PER_THREAD -> curator(client);
			case ZKLOCK, ZKLOCK_PER_CALL, ZKLOCK_KEEP, ZKLOCK_MUTEX_NAMES -> zkLock(client);
			default -> throw unsupported("fencing tokens");
		};
	}

	/**
	 * Return the lock settings of a {@code ZkLockTemplate} of this library.
	 * @return the settings
	 * @throws UnsupportedOperationException if this is not zklock's template
	 */
	public LockSettings lockSettings() {
		return switch (this) {
			case ZKLOCK -> ZkLockLocks.DEFAULTS;
			case ZKLOCK_PER_CALL -> ZkLockLocks.PER_CALL;
			case ZKLOCK_KEEP -> ZkLockLocks.KEEP;
			case ZKLOCK_MUTEX_NAMES -> ZkLockLocks.MUTEX_NAMES;
			default -> throw unsupported("ZkLockTemplate settings");
		};
	}

	/**
	 * Return the path under which this library keeps its nodes.
	 * @return the path
	 */
	public String basePath() {
		return BASE_PATH + id();
	}

	private ZkLockLocks zkLock(CuratorFramework client) {
		return new ZkLockLocks(client, basePath(), WAIT_TIME, lockSettings());
	}

	private UnsupportedOperationException unsupported(String what) {
		return new UnsupportedOperationException(label() + " has no " + what + " to benchmark");
	}

}
