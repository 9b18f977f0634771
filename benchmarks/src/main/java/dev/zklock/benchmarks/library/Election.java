package dev.zklock.benchmarks.library;

import java.time.Duration;

import org.apache.curator.utils.ZKPaths;

/**
 * A leader election library under test, named in arguments by {@link #id()}.
 */
public enum Election implements Subject.Described {

	/** Curator's {@code LeaderLatch} used directly: the baseline. */
	CURATOR("curator", "Curator LeaderLatch", false, "new LeaderLatch(client, path) with a listener, start(), "
			+ "close() on shutdown; leader-only code guarded by hasLeadership(), inline or in a hand-written "
			+ "interceptor on a CGLIB proxy"),

	/** zklock's annotation, in a Spring Boot application. */
	ZKLEADER("zkleader", "zklock @ZkLeader", true, "@ZkLeader(group) on a bean method, auto-configured; leadership seen "
			+ "by a LeadershipGrantedEvent listener; the application closed on shutdown; inline check: "
			+ "ZkLeadership.isLeader(group)");

	private static final String BASE_PATH = "/benchmarks/leaders/";

	private final Subject subject;

	Election(String id, String label, boolean zkLock, String usage) {
		this.subject = new Subject(id, label, usage, zkLock);
	}

	/**
	 * Return the election library with the given id.
	 * @param id the id
	 * @return the library
	 */
	public static Election of(String id) {
		return Subject.find(values(), id);
	}

	@Override
	public Subject subject() {
		return this.subject;
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
		return BASE_PATH + id();
	}

}
