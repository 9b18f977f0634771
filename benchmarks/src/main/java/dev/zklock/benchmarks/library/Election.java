package dev.zklock.benchmarks.library;

import java.time.Duration;
import java.util.Arrays;

import org.apache.curator.utils.ZKPaths;

/**
 * A leader election library under test, named in arguments by {@link #id()}.
 */
public enum Election {

	/** Curator's {@code LeaderLatch} used directly: the baseline. */
	CURATOR("curator", "Curator LeaderLatch", "new LeaderLatch(client, path) with a listener, start(), "
			+ "close() on shutdown; leader-only code guarded by hasLeadership()"),

	/** zklock's annotation, in a Spring Boot application. */
	ZKLEADER("zkleader", "zklock @ZkLeader", "@ZkLeader(group) on a bean method, auto-configured; leadership seen "
			+ "by a LeadershipGrantedEvent listener; the application closed on shutdown");

	private static final String BASE_PATH = "/benchmarks/leaders/";

	private final String id;

	private final String label;

	private final String usage;

	Election(String id, String label, String usage) {
		this.id = id;
		this.label = label;
		this.usage = usage;
	}

	/**
	 * Return the election library with the given id.
	 * @param id the id
	 * @return the library
	 */
	public static Election of(String id) {
		return Arrays.stream(values())
			.filter((election) -> election.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No election library '" + id + "'"));
	}

	/**
	 * Return the name used in arguments.
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
	 * Return how the benchmark uses the library, for the report.
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
		return this == ZKLEADER;
	}

	/**
	 * Return the node under which the participants of a group have their nodes.
	 * @param group the group
	 * @return the path
	 */
	public String path(String group) {
		return ZKPaths.makePath(basePath(), group);
	}

	/**
	 * Take part in a group's election, with a session of its own.
	 * @param connectString the ZooKeeper servers
	 * @param sessionTimeout the session timeout to ask for
	 * @param group the group
	 * @param onLeader called when this participant becomes the leader
	 * @return the participation, which leaves the election when closed
	 */
	public Participation join(String connectString, Duration sessionTimeout, String group, Runnable onLeader) {
		return switch (this) {
			case CURATOR -> new CuratorLeaderLatch(connectString, sessionTimeout, path(group), onLeader);
			case ZKLEADER -> new ZkLeaderParticipant(connectString, sessionTimeout, basePath(), group, onLeader);
		};
	}

	private String basePath() {
		return BASE_PATH + this.id;
	}

}
