package dev.zklock.benchmarks;

import java.time.Duration;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

import dev.zklock.test.ZooKeeperEnsemble;
import dev.zklock.test.ZooKeeperEnsembleBuilder;

/**
 * A ZooKeeper deployment to benchmark against, each server a JVM of its own on loopback.
 */
public enum ZooKeeperSetup {

	/** One server, standalone. */
	STANDALONE("standalone", "standalone server", 1, Transport.PLAINTEXT),

	/** Three servers in a quorum. */
	ENSEMBLE("ensemble", "3-server ensemble", 3, Transport.PLAINTEXT),

	/**
	 * One server with a plaintext and a TLS port, both served by Netty; clients use the
	 * plaintext one. The baseline of {@link #STANDALONE_TLS}.
	 */
	STANDALONE_NETTY("standalone-netty", "standalone server with Netty and a TLS port, clients on plaintext", 1,
			Transport.NETTY_PLAINTEXT),

	/** The same server as {@link #STANDALONE_NETTY}; clients use its TLS port. */
	STANDALONE_TLS("standalone-tls", "standalone server with Netty and a TLS port, clients on TLS", 1, Transport.TLS);

	/**
	 * How clients reach the servers.
	 */
	public enum Transport {

		/** Plaintext, ZooKeeper's default connection factory (NIO). */
		PLAINTEXT,

		/** Plaintext, to a server that also has a TLS port, both served by Netty. */
		NETTY_PLAINTEXT,

		/** TLS, to that server's TLS port. */
		TLS

	}

	/** ZooKeeper's own default for how often empty container nodes are removed. */
	private static final Duration CONTAINER_CHECK_INTERVAL = Duration.ofMinutes(1);

	private final String id;

	private final String label;

	private final int servers;

	private final Transport transport;

	ZooKeeperSetup(String id, String label, int servers, Transport transport) {
		this.id = id;
		this.label = label;
		this.servers = servers;
		this.transport = transport;
	}

	/**
	 * Return the setup with the given id.
	 * @param id {@code standalone}, {@code ensemble}, {@code standalone-netty} or
	 * {@code standalone-tls}
	 * @return the setup
	 */
	public static ZooKeeperSetup of(String id) {
		return Arrays.stream(values())
			.filter((setup) -> setup.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException(
					"Unknown ZooKeeper setup '" + id + "': use standalone, ensemble, standalone-netty or "
							+ "standalone-tls"));
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
	 * Return how clients reach the servers.
	 * @return the transport
	 */
	public Transport transport() {
		return this.transport;
	}

	/**
	 * Return whether the servers need TLS material: a TLS port, used or not.
	 * @return whether they do
	 */
	public boolean needsTls() {
		return this.transport != Transport.PLAINTEXT;
	}

	/**
	 * Start the servers, with ZooKeeper's default settings but for the tick time and
	 * {@code forceSync} given, and a TLS port when the setup has one.
	 * @param tickTime the tick in milliseconds
	 * @param forceSync whether to sync the transaction log before acknowledging
	 * @param tls the server certificate, for a setup that {@link #needsTls() needs} one
	 * @return the running servers
	 */
	ZooKeeperEnsemble start(int tickTime, boolean forceSync, @Nullable TlsMaterial tls) {
		ZooKeeperEnsembleBuilder builder = ZooKeeperEnsemble.builder()
			.servers(this.servers)
			.tickTime(tickTime)
			.containerCheckInterval(CONTAINER_CHECK_INTERVAL)
			.jvmArgs("-Dzookeeper.forceSync=" + (forceSync ? "yes" : "no"));
		if (needsTls()) {
			if (tls == null) {
				throw new IllegalArgumentException("The " + this.label + " needs TLS material");
			}
			builder.secureClientPort().jvmArgs(tls.serverJvmArgs().toArray(String[]::new));
		}
		return builder.start();
	}

}
