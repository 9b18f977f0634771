package dev.zklock.benchmarks.library;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

/**
 * A library under test, named in benchmark parameters by {@link #id()}. Each keeps its nodes
 * under its own path, so that libraries never see each other's locks.
 */
public enum Library implements Subject.Described {

	/** The floor: the least work of a lock cycle, without any exclusion. */
	FLOOR("floor", "floor: create + delete", false,
			"create EPHEMERAL_SEQUENTIAL, then delete, both synchronous; excludes nobody"),

	/** Curator's recipes used directly: the baseline. */
	CURATOR("curator", "Curator", false, "InterProcessMutex.acquire(30, SECONDS) / release(), one instance per key; "
			+ "shared: InterProcessReadWriteLock.readLock(); skip: acquire(0, MILLISECONDS)"),

	/** Spring Integration's lock registry. */
	SPRING_INTEGRATION("spring-integration", "Spring Integration", false,
			"ZookeeperLockRegistry.obtain(key).lock() / unlock()"),

	/** ShedLock's Curator provider, the usual way to skip a scheduled job running elsewhere. */
	SHEDLOCK("shedlock", "ShedLock", false, "DefaultLockingTaskExecutor.executeWithLock(task, config) with "
			+ "ZookeeperCuratorLockProvider, lockAtMostFor 30 min, lockAtLeastFor 0"),

	/** zklock's programmatic API. */
	ZKLOCK("zklock", "zklock ZkLockTemplate", true, "ZkLockTemplate.execute(key, callback), default wait 30 s; "
			+ "shared: execute(key, SHARED, null, callback); skip: tryExecute(key, EXCLUSIVE, ZERO, callback)"),

	/** zklock's annotation, on a bean of a Spring Boot application. */
	ZKLOCKED("zklocked", "zklock @ZkLocked", true,
			"@ZkLocked(\"#key\") on a bean method, auto-configured, default wait 30 s");

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
			case CURATOR -> curator(client);
			case SPRING_INTEGRATION -> new SpringIntegrationLocks(client, basePath());
			case ZKLOCK -> zkLock(client);
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

	private CuratorLocks curator(CuratorFramework client) {
		return new CuratorLocks(client, basePath(), WAIT_TIME.toSeconds());
	}

	private ZkLockLocks zkLock(CuratorFramework client) {
		return new ZkLockLocks(client, basePath(), WAIT_TIME);
	}

	private String basePath() {
		return BASE_PATH + id();
	}

	private UnsupportedOperationException unsupported(String what) {
		return new UnsupportedOperationException(label() + " has no " + what + " to benchmark");
	}

}
