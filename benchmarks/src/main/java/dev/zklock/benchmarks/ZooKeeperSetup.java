package dev.zklock.benchmarks;

import java.time.Duration;
import java.util.Arrays;

import dev.zklock.test.ZooKeeperEnsemble;

/**
 * A ZooKeeper deployment to benchmark against, each server a JVM of its own on loopback.
 */
public enum ZooKeeperSetup {

	/** One server, standalone. */
	STANDALONE("standalone", "standalone server", 1),

	/** Three servers in a quorum. */
	ENSEMBLE("ensemble", "3-server ensemble", 3);

	/** ZooKeeper's own default for how often empty container nodes are removed. */
	private static final Duration CONTAINER_CHECK_INTERVAL = Duration.ofMinutes(1);

	private final String id;

	private final String label;

	private final int servers;

	ZooKeeperSetup(String id, String label, int servers) {
		this.id = id;
		this.label = label;
		this.servers = servers;
	}

	/**
	 * Return the setup with the given id.
	 * @param id {@code standalone} or {@code ensemble}
	 * @return the setup
	 */
	public static ZooKeeperSetup of(String id) {
		return Arrays.stream(values())
			.filter((setup) -> setup.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException(
					"Unknown ZooKeeper setup '" + id + "': use standalone or ensemble"));
	}

	/**
	 * Return the name used in settings.
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
	 * Start the servers, with ZooKeeper's default settings but for the tick time and
	 * {@code forceSync} given.
	 * @param tickTime the tick in milliseconds
	 * @param forceSync whether to sync the transaction log before acknowledging
	 * @return the running servers
	 */
	public ZooKeeperEnsemble start(int tickTime, boolean forceSync) {
		return ZooKeeperEnsemble.builder()
			.servers(this.servers)
			.tickTime(tickTime)
			.containerCheckInterval(CONTAINER_CHECK_INTERVAL)
			.jvmArgs("-Dzookeeper.forceSync=" + (forceSync ? "yes" : "no"))
			.start();
	}

}
