package dev.zklock.lock;

import java.util.List;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;

import dev.zklock.leader.RaceThreads;
import dev.zklock.leader.SimulatedParticipant;

/**
 * An election's own calls on an application's thread (a stop and a start again, a yield) against
 * ZooKeeper's event thread delivering its replies and watches, explored by Fray's controlled
 * scheduler over the real {@code GroupElection} of two instances. Under them is the deterministic
 * simulator's client and server (held to a real server by {@code SimulatorConformanceTests}),
 * taking requests from any thread as ZooKeeper's client does ({@link QueuedPort}); the events of
 * both instances are delivered by one thread of the test. Once every thread is done and the events
 * have run their course, the instance that is left leads, with one node of its own, and the
 * believed leadership is the server's.
 */
@ExtendWith(FrayTestExtension.class)
class ElectionFrayTests {

	private static final int ITERATIONS = 2000;

	private static final String GROUP = "jobs";

	private static final String GROUP_PATH = "/zklock/leader/jobs";

	/**
	 * How many events the event thread runs beside the application's thread.
	 */
	private static final int STEPS_BESIDE = 40;

	/**
	 * The most events a wait for the elections to settle runs.
	 */
	private static final int MOST_STEPS = 3000;

	/**
	 * A follower's election stopped and started again (the context's stop and start) while its
	 * events are delivered; then the leader leaves. The follower must learn of it through the
	 * watch of the restarted election (a late removal of the stopped one's watches must not strip
	 * it) and lead, with one node.
	 */
	@ConcurrencyTest(iterations = ITERATIONS)
	void followerRestartedAgainstItsEventsLeadsOnceTheLeaderLeaves() {
		Instances instances = new Instances();
		instances.settle(() -> instances.b.leadsWithoutAsking());
		instances.a.start();
		instances.settle(() -> instances.a.node() != null && instances.nodes().size() == 2);
		RaceThreads.check(!instances.a.leadsWithoutAsking(), "two instances lead: " + instances);
		Thread events = RaceThreads.start(() -> instances.run(STEPS_BESIDE));
		Thread application = RaceThreads.start(() -> {
			instances.a.stop();
			instances.a.start();
		});
		RaceThreads.join(events, application);
		instances.settle(() -> instances.a.node() != null && instances.nodes().size() == 2);
		instances.b.stop();
		instances.settle(() -> instances.a.leadsWithoutAsking());
		instances.check("a");
	}

	/**
	 * The leader yields while the events of its own election are delivered (its next look, its
	 * node's replacement); the other instance leads after it, and the believed leadership is the
	 * server's.
	 */
	@ConcurrencyTest(iterations = ITERATIONS)
	void leaderYieldingAgainstItsEventsHandsTheGroupOver() {
		Instances instances = new Instances();
		instances.settle(() -> instances.b.leadsWithoutAsking());
		instances.a.start();
		instances.settle(() -> instances.a.node() != null && instances.nodes().size() == 2);
		Thread events = RaceThreads.start(() -> instances.run(STEPS_BESIDE));
		Thread application = RaceThreads.start(() -> instances.b.yieldLeadership());
		RaceThreads.join(events, application);
		instances.settle(() -> instances.a.leadsWithoutAsking() && instances.nodes().size() == 2);
		RaceThreads.check(!instances.b.leadsWithoutAsking(), "two instances lead after a yield");
		instances.b.stop();
		instances.settle(() -> instances.nodes().size() == 1);
		instances.check("a");
	}

	/**
	 * Two instances on one simulated server; b starts first.
	 */
	private static final class Instances {

		private final SimWorld world = new SimWorld(1, 0);

		private final SimServer server = new SimServer();

		private final QueuedPort portA;

		private final QueuedPort portB;

		final SimulatedParticipant a;

		final SimulatedParticipant b;

		Instances() {
			SimClient clientA = new SimClient(this.world, this.server, "a", SimFaults.NONE, SimWorld.millis(4000));
			SimClient clientB = new SimClient(this.world, this.server, "b", SimFaults.NONE, SimWorld.millis(4000));
			this.world.runUntil(SimWorld.millis(50));
			this.portA = new QueuedPort(clientA);
			this.portB = new QueuedPort(clientB);
			this.a = participant("a", this.portA);
			this.b = participant("b", this.portB);
			this.b.start();
		}

		private static SimulatedParticipant participant(String id, QueuedPort port) {
			return new SimulatedParticipant(GROUP, id, port, GROUP_PATH, (since) -> false,
					new SimulatedParticipant.Listener() {

						@Override
						public void granted(long epoch) {
						}

						@Override
						public void revoked(long epoch, String reason) {
						}

					});
		}

		/**
		 * Deliver events, the requests of both instances queued before each.
		 */
		void run(int steps) {
			for (int i = 0; i < steps && step(); i++) {
				// One event at a time.
			}
		}

		/**
		 * Deliver events until the condition holds, then as many again as it took the elections
		 * to settle: nothing changes any more.
		 */
		void settle(BooleanSupplier condition) {
			int steps = 0;
			while (!condition.getAsBoolean()) {
				RaceThreads.check(steps++ < MOST_STEPS && step(), "the elections did not settle: " + this);
			}
			run(200);
		}

		private boolean step() {
			this.portA.send();
			return this.portB.step(this.world);
		}

		List<SimServer.Node> nodes() {
			return this.server.ephemeralsUnder(GROUP_PATH + "/");
		}

		/**
		 * The instance named leads, alone, with the first node, its only one.
		 */
		void check(String leader) {
			SimulatedParticipant leading = leader.equals("a") ? this.a : this.b;
			SimulatedParticipant other = leader.equals("a") ? this.b : this.a;
			RaceThreads.check(leading.leadsWithoutAsking() && !other.leadsWithoutAsking(),
					"instance " + leader + " does not lead alone: " + this);
			List<SimServer.Node> nodes = nodes();
			RaceThreads.check(nodes.stream().anyMatch((node) -> node.path.equals(leading.node())),
					"the leader's node is not at the server: " + this);
			RaceThreads.check(nodes.stream().map((node) -> node.owner).distinct().count() == nodes.size(),
					"an instance takes part with two nodes: " + this);
		}

		@Override
		public String toString() {
			return "a " + this.a.node() + " leads=" + this.a.leadsWithoutAsking() + ", b " + this.b.node() + " leads="
					+ this.b.leadsWithoutAsking() + ", nodes at the server "
					+ nodes().stream().map((node) -> node.path + " of session " + node.owner).toList();
		}

	}

}
