package dev.zklock.lock;

/**
 * One instance over the deterministic simulator, for tests that call the engine from several
 * threads: a world and a server, a client with a session on it, the client's requests queued for
 * the thread that delivers the simulator's events ({@link QueuedPort}), and a lock engine with
 * the defaults on that port.
 *
 * @param world the simulator's world
 * @param client the instance's client
 * @param port the client, its requests queued
 * @param engine the instance's engine
 */
record QueuedInstance(SimWorld world, SimClient client, QueuedPort port, LockEngine engine) {

	/**
	 * Start the world, connect the client and make the engine.
	 * @return the instance
	 */
	static QueuedInstance connected() {
		SimWorld world = new SimWorld(1, 0);
		SimServer server = new SimServer();
		SimClient client = new SimClient(world, server, "i0", SimFaults.NONE, SimWorld.millis(4000));
		world.runUntil(SimWorld.millis(50));
		QueuedPort port = new QueuedPort(client);
		LockEngine engine = new LockEngine(port, client::mayHavePausedSince, SimRun.BASE, false,
				LockCallListener.NONE, LockSettings.DEFAULTS, 2);
		return new QueuedInstance(world, client, port, engine);
	}

}
