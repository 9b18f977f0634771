package dev.zklock.benchmarks.library;

import java.time.Duration;
import java.util.Arrays;

import org.apache.curator.framework.CuratorFramework;

/**
 * A library under test, named in benchmark parameters by {@link #id()}. Each keeps its nodes
 * under its own path, so that libraries never see each other's locks.
 */
public enum Library {

	/** The floor: the least work of a lock cycle, without any exclusion. */
	FLOOR("floor", "floor: create + delete",
			"create EPHEMERAL_SEQUENTIAL, then delete, both synchronous; excludes nobody"),

	/** Curator's recipes used directly: the baseline. */
	CURATOR("curator", "Curator", "InterProcessMutex.acquire(30, SECONDS) / release(), one instance per key; "
			+ "shared: InterProcessReadWriteLock.readLock(); skip: acquire(0, MILLISECONDS)"),

	/** Spring Integration's lock registry. */
	SPRING_INTEGRATION("spring-integration", "Spring Integration",
			"ZookeeperLockRegistry.obtain(key).lock() / unlock()"),

	/** ShedLock's Curator provider, the usual way to skip a scheduled job running elsewhere. */
	SHEDLOCK("shedlock", "ShedLock", "DefaultLockingTaskExecutor.executeWithLock(task, config) with "
			+ "ZookeeperCuratorLockProvider, lockAtMostFor 30 min, lockAtLeastFor 0"),

	/** zklock's programmatic API. */
	ZKLOCK("zklock", "zklock ZkLockTemplate", "ZkLockTemplate.execute(key, callback), default wait 30 s; "
			+ "shared: execute(key, SHARED, null, callback); skip: tryExecute(key, EXCLUSIVE, ZERO, callback)"),

	/** zklock's annotation, on a bean of a Spring Boot application. */
	ZKLOCKED("zklocked", "zklock @ZkLocked",
			"@ZkLocked(\"#key\") on a bean method, auto-configured, default wait 30 s");

	/** The wait for a lock, for the libraries that take one: zklock's default. */
	public static final Duration WAIT_TIME = Duration.ofSeconds(30);

	private static final String BASE_PATH = "/benchmarks/";

	private final String id;

	private final String label;

	private final String usage;

	Library(String id, String label, String usage) {
		this.id = id;
		this.label = label;
		this.usage = usage;
	}

	/**
	 * Return the library named by a benchmark parameter.
	 * @param id the parameter value
	 * @return the library
	 */
	public static Library of(String id) {
		return Arrays.stream(values())
			.filter((library) -> library.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No library '" + id + "'"));
	}

	/**
	 * Return the name used in benchmark parameters.
	 * @return the id
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return the name shown in the report.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	/**
	 * Return how the benchmarks call the library, for the report.
	 * @return the calls
	 */
	public String usage() {
		return this.usage;
	}

	/**
	 * Return whether this is zklock itself rather than a baseline.
	 * @return whether it is zklock
	 */
	public boolean isZkLock() {
		return this == ZKLOCK || this == ZKLOCKED;
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
		return BASE_PATH + this.id;
	}

	private UnsupportedOperationException unsupported(String what) {
		return new UnsupportedOperationException(this.label + " has no " + what + " to benchmark");
	}

}
