package dev.zklock.leader;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import org.apache.zookeeper.KeeperException.Code;

import dev.zklock.lock.Pauses;
import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * Whether this instance still leads one group after the process may have paused: a read of
 * local state, unless the pause may have outlasted the session since the term was last
 * confirmed; then the leader of the ensemble must confirm (a sync, then a read) that our node is
 * still there, owned by our session. A paused leader wakes up believing it leads while another
 * may already do.
 */
final class LeadershipConfirmation {

	private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(2);

	private final ZooKeeperPort port;

	private final ElectionState state;

	private final Pauses pauses;

	private final Runnable lookAgain;

	private volatile long confirmedAt;

	LeadershipConfirmation(ZooKeeperPort port, ElectionState state, Pauses pauses, Runnable lookAgain) {
		this.port = port;
		this.state = state;
		this.pauses = pauses;
		this.lookAgain = lookAgain;
		this.confirmedAt = port.nanoTime();
	}

	/**
	 * Record that a look at ZooKeeper that began at the given time found this instance leading.
	 * @param lookedAt when the look began, in the port's {@link ZooKeeperPort#nanoTime()}
	 */
	void confirmed(long lookedAt) {
		this.confirmedAt = lookedAt;
	}

	/**
	 * Return whether this instance leads, asking the server after a pause that may have
	 * outlasted the session, and waiting for its answer (through the port, where the
	 * simulator parks a simulated thread).
	 */
	boolean isLeader() {
		CompletableFuture<Boolean> leads = isLeaderAsync();
		try {
			return this.port.await(leads, CONFIRM_TIMEOUT.toNanos());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// Unanswered: not confirmed.
		}
		this.state.doubted();
		this.lookAgain.run();
		return false;
	}

	/**
	 * Return whether this instance leads, from local state, or once the server has answered
	 * after a pause that may have outlasted the session.
	 */
	CompletableFuture<Boolean> isLeaderAsync() {
		if (!this.state.isLeader()) {
			return CompletableFuture.completedFuture(false);
		}
		if (!this.pauses.mayHavePausedSince(this.confirmedAt)) {
			return CompletableFuture.completedFuture(true);
		}
		return confirmAfterPause();
	}

	/**
	 * Return whether the process may have paused, longer than the session could survive, since
	 * the given time.
	 */
	boolean mayHavePausedSince(long since) {
		return this.pauses.mayHavePausedSince(since);
	}

	/**
	 * Return whether this instance leads and {@link #isLeader()} would say so from local state
	 * alone, without asking the server.
	 */
	boolean isLeaderWithoutAsking() {
		return this.state.isLeader() && !this.pauses.mayHavePausedSince(this.confirmedAt);
	}

	/**
	 * Ask the leader of the ensemble whether our node is still there, owned by our session: if
	 * it is, the term is confirmed as of the question's sending; if it is not, or the question
	 * fails, leadership is revoked until a new look.
	 */
	private CompletableFuture<Boolean> confirmAfterPause() {
		long asked = this.port.nanoTime();
		String path = this.state.node();
		if (path == null) {
			return CompletableFuture.completedFuture(false);
		}
		long session = this.port.sessionId();
		CompletableFuture<Boolean> confirmed = new CompletableFuture<>();
		this.port.syncAndRead(path, (code, own) -> {
			if (code == Code.OK && own != null && own.ephemeralOwner() == session) {
				if (this.pauses.mayHavePausedSince(asked)) {
					// Frozen again since the question was sent: the answer, read late, may
					// predate a session that ended meanwhile. Ask again.
					confirmAfterPause().thenAccept(confirmed::complete);
					return;
				}
				this.confirmedAt = asked;
				confirmed.complete(this.state.isLeader());
				return;
			}
			if (code == Code.OK || code == Code.NONODE) {
				this.state.nodeGone(path);
			}
			else {
				this.state.doubted();
			}
			this.lookAgain.run();
			confirmed.complete(false);
		});
		return confirmed;
	}

}
