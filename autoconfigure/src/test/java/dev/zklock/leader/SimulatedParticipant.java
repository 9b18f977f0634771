package dev.zklock.leader;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.zklock.LeaderTerm;
import dev.zklock.lock.Pauses;
import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * One instance's part in one group's election, the real classes ({@link GroupElection} and all
 * under it) on a port of the caller's choice: the way the deterministic simulator of the tests
 * drives elections from its own package.
 */
public final class SimulatedParticipant {

	private final GroupElection election;

	/**
	 * Create a participant; it joins when started.
	 * @param listener told of every grant and revocation, as they happen
	 */
	public SimulatedParticipant(String group, String participantId, ZooKeeperPort port, String groupPath,
			Pauses pauses, Listener listener) {
		this.election = new GroupElection(group, participantId, port, groupPath, new LeadershipListener() {

			@Override
			public void granted(String group, long epoch) {
				listener.granted(epoch);
			}

			@Override
			public void revoked(String group, long epoch, String reason) {
				listener.revoked(epoch, reason);
			}

		}, pauses, Duration.ofSeconds(10));
	}

	public CompletableFuture<Void> start() {
		return this.election.start();
	}

	public CompletableFuture<Void> stop() {
		return this.election.stop();
	}

	/**
	 * Return whether it leads and would say so without asking the server: what a call on it
	 * trusts.
	 */
	public boolean leadsWithoutAsking() {
		return this.election.isLeaderWithoutAsking();
	}

	/**
	 * Return whether it leads, as a call on it asks: from local state, or once the server has
	 * confirmed the term after a pause that may have outlasted the session.
	 */
	public CompletableFuture<Boolean> leads() {
		return this.election.isLeaderAsync();
	}

	/**
	 * Return the epoch of its term, {@code -1} when it does not lead.
	 */
	public long epoch() {
		return this.election.leaderEpoch();
	}

	/**
	 * Return its term, as {@code ZkLeadership.term} does: waiting, on the calling thread, for
	 * the server's confirmation after a pause that may have outlasted the session.
	 */
	public Optional<LeaderTerm> term() {
		return this.election.term();
	}

	public boolean yieldLeadership() {
		return this.election.yieldLeadership();
	}

	/**
	 * Return the node it takes part with, or {@code null}.
	 */
	public @Nullable String node() {
		return this.election.node();
	}

	/**
	 * Told of the changes of the participant's leadership.
	 */
	public interface Listener {

		void granted(long epoch);

		void revoked(long epoch, String reason);

	}

}
