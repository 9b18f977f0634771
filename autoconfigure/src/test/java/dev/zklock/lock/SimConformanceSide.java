package dev.zklock.lock;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * A conformance script on the simulator: a {@link SimClient} without faults per session, on one
 * {@link SimServer}, the world stepped until each awaited reply has arrived.
 */
final class SimConformanceSide extends ConformanceSide {

	private static final long SESSION_TIMEOUT = SimWorld.millis(10_000);

	private static final int MAX_STEPS = 100_000;

	private final SimWorld world;

	private final SimServer server = new SimServer();

	private final Map<String, SimClient> clients = new HashMap<>();

	SimConformanceSide(long seed) {
		this.world = new SimWorld(seed, 0);
	}

	@Override
	ZooKeeperPort connect(String name) {
		SimClient client = new SimClient(this.world, this.server, name, SimFaults.NONE, SESSION_TIMEOUT)
			.stepWhenWaitedOn();
		this.clients.put(name, client);
		return client;
	}

	@Override
	void disconnect(ConformanceClient client) {
		this.clients.remove(client.name()).close();
	}

	@Override
	void reap(String gone) {
		this.server.reapContainers();
	}

	@Override
	void expireSession(ConformanceClient client) {
		this.clients.get(client.name()).expireSession();
	}

	@Override
	void drop(ConformanceClient client) {
		// Down until restored: longer than any script waits.
		this.clients.get(client.name()).dropConnection(SESSION_TIMEOUT * 100);
	}

	@Override
	void restore(ConformanceClient client) {
		this.clients.get(client.name()).stopFaults();
	}

	@Override
	void await(BooleanSupplier done, String what) {
		for (int steps = 0; !done.getAsBoolean(); steps++) {
			if (steps > MAX_STEPS || !this.world.step()) {
				throw new AssertionError("The simulator never got to: " + what);
			}
		}
	}

	@Override
	public void close() {
		this.clients.values().forEach(SimClient::close);
	}

}
