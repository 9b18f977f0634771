package dev.zklock.lock;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import dev.zklock.LeaderTerm;
import dev.zklock.leader.SimulatedParticipant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The confirmation of a leadership after a process pause, on the deterministic simulator: the
 * real election classes on a simulated client, with the pauses placed by hand.
 */
class LeadershipConfirmationSimTests {

	private static final long SESSION_TIMEOUT = SimWorld.millis(3000);

	@Test
	void anAnswerReadAfterASecondPauseDoesNotConfirmTheTerm() {
		SimWorld world = new SimWorld(1, 200);
		SimServer server = new SimServer();
		SimClient client = new SimClient(world, server, "i0", SimFaults.NONE, SESSION_TIMEOUT);
		SimulatedParticipant participant = leader(world, client);
		// A pause the session survives, but long enough that the term must be confirmed.
		client.pause(SimWorld.millis(1000));
		world.runUntil(SimWorld.millis(1200));
		assertThat(participant.leadsWithoutAsking()).isFalse();
		long session = client.sessionId();
		CompletableFuture<Boolean> leads = participant.leads();
		// The question is a sync, then a read of our node. Frozen again as the read goes out:
		// its answer, that the node is ours, comes while the process is frozen, and the session
		// ends before it wakes up to read it.
		while (!world.trace().strip().endsWith("i0: reply to sync OK")) {
			assertThat(world.step()).isTrue();
		}
		client.pause(SESSION_TIMEOUT * 2);
		world.runUntil(SimWorld.millis(1200) + SESSION_TIMEOUT * 2 + SimWorld.millis(3000));
		assertThat(server.isAlive(session)).isFalse();
		assertThat(leads.getNow(false)).as("confirmed by an answer read after the session ended").isFalse();
	}

	@Test
	void aBlockingLookAfterAPauseThatTheServerDoesNotAnswerInTimeFindsNoTerm() {
		long sessionTimeout = SimWorld.millis(20_000);
		SimWorld world = new SimWorld(1, 200);
		SimServer server = new SimServer();
		SimClient client = new SimClient(world, server, "i0", SimFaults.NONE, sessionTimeout);
		SimulatedParticipant participant = leader(world, client);
		// A pause the session survives, long enough that the term must be confirmed; then the
		// server answers 5 s late, the link staying up.
		client.pause(SimWorld.millis(5000));
		world.runUntil(SimWorld.millis(5200));
		assertThat(participant.leadsWithoutAsking()).isFalse();
		client.slowLink(SimWorld.millis(5000));
		AtomicReference<Optional<LeaderTerm>> term = new AtomicReference<>();
		SimThread caller = new SimThread(world, "i0", "i0 caller");
		long asked = world.now();
		caller.start(() -> term.set(participant.term()));
		world.runUntil(asked + SimWorld.millis(2100));
		assertThat(caller.isEnded()).as("the look returned within its two seconds").isTrue();
		assertThat(term.get()).as("a term no answer confirmed").isEmpty();
		caller.stop();
	}

	/**
	 * Start the one participant of group {@code g} on the client, and let it lead.
	 */
	private static SimulatedParticipant leader(SimWorld world, SimClient client) {
		SimulatedParticipant participant = new SimulatedParticipant("g", "i0", client, "/zklock/leader/g",
				client::mayHavePausedSince, new SimulatedParticipant.Listener() {

					@Override
					public void granted(long epoch) {
					}

					@Override
					public void revoked(long epoch, String reason) {
					}

				});
		participant.start();
		world.runUntil(SimWorld.millis(100));
		assertThat(participant.leadsWithoutAsking()).isTrue();
		return participant;
	}

}
