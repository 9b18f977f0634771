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

	private final boolean tls;

	private PinnedServer(ZooKeeperEnsemble servers, int id, boolean tls) {
		this.servers = servers;
		this.id = id;
		this.tls = tls;
		this.roleAtStart = servers.mode(id);
	}

	/**
	 * Choose the server: the standalone one, or the first server of the given role.
	 * @param servers the running servers
	 * @param role {@code follower} or {@code leader}
	 * @param tls whether clients use the server's TLS port
	 * @return the server
	 */
	static PinnedServer choose(ZooKeeperEnsemble servers, String role, boolean tls) {
		if (servers.size() == 1) {
			return new PinnedServer(servers, 1, tls);
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
		return new PinnedServer(servers, id, tls);
	}

	/**
	 * Return the connect string of the server's port the clients use: its TLS port in a TLS
	 * setup, else its plaintext one.
	 */
	String connectString() {
		return this.tls ? this.servers.secureConnectString(this.id) : this.servers.connectString(this.id);
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
		String tlsNote = this.tls ? ", over TLS (`" + connectString() + "`; the server's certificate is checked "
				+ "against the run's own authority, no client certificate)." : ".";
		return (this.servers.size() == 1) ? "Every client connects to the one server" + tlsNote
				: "Every client of every library connects to server " + this.id + " only (`" + connectString()
						+ "`), " + roles + (this.roleAtStart.equals("follower")
								? "; its clients' writes go through it to the leader." : ".");
	}

}
