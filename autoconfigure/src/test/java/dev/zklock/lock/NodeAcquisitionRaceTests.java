package dev.zklock.lock;

import java.util.concurrent.atomic.AtomicBoolean;

import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.leader.RaceThreads;

/**
 * The race of a key's request for a node against the key giving it up, explored by Lincheck's
 * model checker: a {@link NodeAcquisition} started on one thread (a caller that found the key
 * free) while another abandons it (a caller whose wait ended, or the key retiring). The
 * acquisition is the library's own; under it is the deterministic simulator's client and
 * server (the model of ZooKeeper held to a real server by {@code SimulatorConformanceTests}),
 * whose replies are delivered once both threads are done. Whatever the order, the request
 * never holds the key and leaves no node behind.
 */
@Timeout(120)
class NodeAcquisitionRaceTests {

	/**
	 * How many interleavings the test runs.
	 */
	private static final int INVOCATIONS = 100;

	private static final String KEY = "/zklock/locks/k";

	/**
	 * How many of the simulator's events are run after both threads: enough for any request to
	 * be answered and the node of an abandoned one deleted; a bounded loop, which the model
	 * checker does not take for a hang.
	 */
	private static final int STEPS_AFTER = 60;

	static {
		// The simulated server names sequential nodes with String.format: its locale data is
		// loaded here, outside the model checker, which cannot load it.
		String.format("%010d", 1);
	}

	@Test
	void anAcquisitionAbandonedWhileItStartsNeverHoldsAndLeavesNoNode() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> {
			SimWorld world = new SimWorld(1, 0);
			SimServer server = new SimServer();
			SimClient client = new SimClient(world, server, "i0", SimFaults.NONE, SimWorld.millis(4000));
			world.runUntil(SimWorld.millis(50));
			AtomicBoolean granted = new AtomicBoolean();
			NodeAcquisition acquisition = new NodeAcquisition(client, KEY, LockMode.EXCLUSIVE,
					LockNodeNames.READ_WRITE_LOCK, new KeyNodes(), new Stalls(client), (node) -> granted.set(true));
			Thread starting = RaceThreads.start(acquisition::start);
			Thread abandoning = RaceThreads.start(acquisition::abandon);
			RaceThreads.join(starting, abandoning);
			for (int i = 0; i < STEPS_AFTER && world.step(); i++) {
				// Replies, and the requests they lead to.
			}
			RaceThreads.check(!granted.get(), "an abandoned request was granted");
			SimServer.Node key = server.node(KEY);
			RaceThreads.check(key == null || key.children.isEmpty(),
					"nodes left behind: " + ((key != null) ? key.children : ""));
		});
	}

}
