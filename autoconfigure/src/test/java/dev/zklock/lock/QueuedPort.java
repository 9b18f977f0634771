package dev.zklock.lock;

import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * The simulator's client for code that calls it from several threads: a request made on any
 * thread is queued, as ZooKeeper's client queues it for its I/O thread, and sent by the one
 * thread that delivers the simulator's events, before its next event ({@link #step(SimWorld)}).
 * Only that thread touches the simulator; the others never wait for it. The reads of the client's
 * state (its session, whether it is connected, its clock) are answered at once, as ZooKeeper's
 * client answers them.
 */
final class QueuedPort implements ZooKeeperPort {

	private final SimClient client;

	private final Queue<Runnable> requests = new ConcurrentLinkedQueue<>();

	private final AtomicLong ids = new AtomicLong();

	QueuedPort(SimClient client) {
		this.client = client;
	}

	/**
	 * On the thread that delivers the simulator's events: send the requests queued, then run the
	 * next event.
	 * @return whether there was an event to run
	 */
	boolean step(SimWorld world) {
		send();
		return world.step();
	}

	/**
	 * On the calling thread, which becomes the one that delivers the simulator's events: run
	 * events one at a time, the requests queued before each, until done or the steps are spent.
	 */
	void run(SimWorld world, int steps, BooleanSupplier done) {
		for (int i = 0; i < steps && !done.getAsBoolean() && step(world); i++) {
			// One event at a time.
		}
	}

	/**
	 * On the thread that delivers the simulator's events: send the requests queued.
	 */
	void send() {
		for (Runnable request = this.requests.poll(); request != null; request = this.requests.poll()) {
			request.run();
		}
	}

	@Override
	public void createLockNode(String path, byte[] data, Reply<Created> reply) {
		this.requests.add(() -> this.client.createLockNode(path, data, reply));
	}

	@Override
	public void createKeyAndLockNode(String keyPath, String lockNodePath, byte[] data, Reply<KeyCreated> reply) {
		this.requests.add(() -> this.client.createKeyAndLockNode(keyPath, lockNodePath, data, reply));
	}

	@Override
	public void createSequentialNode(String path, byte[] data, Reply<Created> reply) {
		this.requests.add(() -> this.client.createSequentialNode(path, data, reply));
	}

	@Override
	public void createContainers(String path, Reply<Void> reply) {
		this.requests.add(() -> this.client.createContainers(path, reply));
	}

	@Override
	public void getChildren(String path, @Nullable Runnable watch, Reply<Children> reply) {
		this.requests.add(() -> this.client.getChildren(path, watch, reply));
	}

	@Override
	public void exists(String path, @Nullable Runnable watch, Reply<NodeStat> reply) {
		this.requests.add(() -> this.client.exists(path, watch, reply));
	}

	@Override
	public void getData(String path, Reply<byte[]> reply) {
		this.requests.add(() -> this.client.getData(path, reply));
	}

	@Override
	public void removeWatches(String path) {
		this.requests.add(() -> this.client.removeWatches(path));
	}

	@Override
	public void delete(String path, @Nullable Reply<Void> reply) {
		this.requests.add(() -> this.client.delete(path, reply));
	}

	@Override
	public void deleteLockAndKeyNode(String lockNodePath, String keyPath, Reply<Void> reply) {
		this.requests.add(() -> this.client.deleteLockAndKeyNode(lockNodePath, keyPath, reply));
	}

	@Override
	public void touch(String path, byte[] data, Reply<NodeStat> reply) {
		this.requests.add(() -> this.client.touch(path, data, reply));
	}

	@Override
	public void syncAndRead(String path, Reply<NodeStat> reply) {
		this.requests.add(() -> this.client.syncAndRead(path, reply));
	}

	@Override
	public long sessionId() {
		return this.client.sessionId();
	}

	@Override
	public boolean isConnected() {
		return this.client.isConnected();
	}

	@Override
	public boolean awaitConnected(long nanos) {
		return this.client.isConnected();
	}

	@Override
	public String connectString() {
		return this.client.connectString();
	}

	@Override
	public void addConnectionListener(ConnectionListener listener) {
		this.requests.add(() -> this.client.addConnectionListener(listener));
	}

	@Override
	public void removeConnectionListener(ConnectionListener listener) {
		this.requests.add(() -> this.client.removeConnectionListener(listener));
	}

	@Override
	public long nanoTime() {
		return this.client.nanoTime();
	}

	@Override
	public Timer schedule(Runnable task, long nanos) {
		AtomicBoolean cancelled = new AtomicBoolean();
		this.requests.add(() -> this.client.schedule(() -> {
			if (!cancelled.get()) {
				task.run();
			}
		}, nanos));
		return () -> cancelled.set(true);
	}

	@Override
	public void execute(Runnable task) {
		this.requests.add(() -> this.client.execute(task));
	}

	@Override
	public String newProtectedId() {
		// Counted here rather than drawn from the simulator's random source, which only the
		// events' thread may touch; distinct for each client.
		return new UUID(0x5EED_0000_0000L + this.client.name().hashCode(), this.ids.incrementAndGet()).toString();
	}

}
