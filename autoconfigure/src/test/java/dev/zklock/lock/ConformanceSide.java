package dev.zklock.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * Where a conformance script runs: the simulator ({@link SimConformanceSide}) or a real server
 * ({@link RealConformanceSide}). Scripts open sessions, make requests through each session's
 * port, end sessions, and let the server reap empty containers; the side writes the transcript.
 */
abstract class ConformanceSide implements AutoCloseable {

	private final ConformanceTranscript transcript = new ConformanceTranscript();

	private final List<ConformanceClient> open = new ArrayList<>();

	ConformanceTranscript transcript() {
		return this.transcript;
	}

	/**
	 * Start a session.
	 */
	ConformanceClient open(String name) {
		ZooKeeperPort port = connect(name);
		this.transcript.session(port.sessionId(), name);
		this.transcript.add(name + " opens a session").outcome("OK");
		ConformanceClient client = new ConformanceClient(name, port, this);
		this.open.add(client);
		return client;
	}

	/**
	 * End a session, as a stopping application does (its ephemeral nodes go in one transaction,
	 * as at its expiry).
	 */
	void end(ConformanceClient client) {
		this.open.remove(client);
		disconnect(client);
		this.transcript.add(client.name() + " ends its session").outcome("OK");
	}

	/**
	 * End a session at the server, as its expiry does, and wait until its client has a new one.
	 */
	void expire(ConformanceClient client) {
		expireSession(client);
		client.awaitTold(ZooKeeperPort.Connection.LOST);
		client.awaitTold(ZooKeeperPort.Connection.RECONNECTED);
		this.transcript.session(client.port().sessionId(), client.name() + "'");
	}

	/**
	 * Break a session's connection (the session lives on), and wait until its client says so.
	 */
	void dropConnection(ConformanceClient client) {
		drop(client);
		client.awaitTold(ZooKeeperPort.Connection.SUSPENDED);
	}

	/**
	 * Let a broken connection come back, and wait until its client is connected again.
	 */
	void restoreConnection(ConformanceClient client) {
		restore(client);
		client.awaitTold(ZooKeeperPort.Connection.RECONNECTED);
	}

	/**
	 * Let the server remove the empty containers that have had children, and wait until the given
	 * node is gone with them.
	 */
	void reapContainers(String gone) {
		reap(gone);
		this.transcript.add("the server reaps empty containers").outcome("OK");
	}

	/**
	 * Have every open session read once, so that every watch the server fired is written down,
	 * and return the transcript.
	 */
	List<String> finish() {
		List<ConformanceClient.Step<?>> reads = new ArrayList<>();
		for (ConformanceClient client : this.open) {
			reads.add(client.settle());
		}
		reads.forEach((read) -> await(read::isDone, read.request()));
		return this.transcript.lines();
	}

	abstract ZooKeeperPort connect(String name);

	abstract void disconnect(ConformanceClient client);

	abstract void reap(String gone);

	abstract void expireSession(ConformanceClient client);

	abstract void drop(ConformanceClient client);

	abstract void restore(ConformanceClient client);

	/**
	 * Wait, bounded, until the condition holds.
	 */
	abstract void await(BooleanSupplier done, String what);

}
