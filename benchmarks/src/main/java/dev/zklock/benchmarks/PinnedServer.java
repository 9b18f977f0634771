package dev.zklock.benchmarks;

import java.util.OptionalInt;
import java.util.stream.IntStream;

import dev.zklock.test.ZooKeeperEnsemble;

/**
 * The one server every client of a setup's benchmarks connects to. With one connect string
 * naming every server of an ensemble, each client would pick one at random, and a library
 * whose client happened to reach the leader would be compared with one that reached a
 * follower; so all of them get the same server, and the report says which role it had.
 */
final class PinnedServer {

	private final ZooKeeperEnsemble servers;

	private final int id;

	private final String roleAtStart;

	private PinnedServer(ZooKeeperEnsemble servers, int id) {
		this.servers = servers;
		this.id = id;
		this.roleAtStart = servers.mode(id);
	}

	/**
	 * Choose the server: the standalone one, or the first server of the given role.
	 * @param servers the running servers
	 * @param role {@code follower} or {@code leader}
	 * @return the server
	 */
	static PinnedServer choose(ZooKeeperEnsemble servers, String role) {
		if (servers.size() == 1) {
			return new PinnedServer(servers, 1);
		}
		OptionalInt leader = servers.leader();
		if (leader.isEmpty()) {
			throw new IllegalStateException("The ensemble has no leader to tell the roles of its servers by");
		}
		int id = role.equals("leader") ? leader.getAsInt()
				: IntStream.rangeClosed(1, servers.size())
					.filter((candidate) -> candidate != leader.getAsInt())
					.findFirst()
					.orElseThrow();
		return new PinnedServer(servers, id);
	}

	String connectString() {
		return this.servers.connectString(this.id);
	}

	String roleAtStart() {
		return this.roleAtStart;
	}

	/**
	 * Say which server it was and what role it had at the start and has now.
	 */
	String describe() {
		String now = this.servers.mode(this.id);
		String roles = now.equals(this.roleAtStart) ? "the " + now + " throughout"
				: "the " + this.roleAtStart + " at the start, the " + now + " at the end";
		return (this.servers.size() == 1) ? "Every client connects to the one server."
				: "Every client of every library connects to server " + this.id + " only (`" + connectString()
						+ "`), " + roles + (this.roleAtStart.equals("follower")
								? "; its clients' writes go through it to the leader." : ".");
	}

}
