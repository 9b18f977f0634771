package dev.zklock.lock;

import org.jspecify.annotations.Nullable;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * A port whose every call runs under one monitor, so that the simulator's client, which is
 * driven by one thread, can be called from several, as ZooKeeper's client takes requests from
 * any thread. The thread that delivers the simulator's events holds the same monitor for each
 * event ({@link #monitor()}). The reads of the client's state (its session, whether it is
 * connected, its clock) are not: ZooKeeper's client answers them without waiting for its event
 * thread, and the core reads the clock under its keys' locks.
 */
final class SerializedPort implements ZooKeeperPort {

	private final ZooKeeperPort port;

	private final Object monitor = new Object();

	SerializedPort(ZooKeeperPort port) {
		this.port = port;
	}

	Object monitor() {
		return this.monitor;
	}

	@Override
	public void createLockNode(String path, byte[] data, Reply<Created> reply) {
		synchronized (this.monitor) {
			this.port.createLockNode(path, data, reply);
		}
	}

	@Override
	public void createKeyAndLockNode(String keyPath, String lockNodePath, byte[] data, Reply<KeyCreated> reply) {
		synchronized (this.monitor) {
			this.port.createKeyAndLockNode(keyPath, lockNodePath, data, reply);
		}
	}

	@Override
	public void createSequentialNode(String path, byte[] data, Reply<Created> reply) {
		synchronized (this.monitor) {
			this.port.createSequentialNode(path, data, reply);
		}
	}

	@Override
	public void createContainers(String path, Reply<Void> reply) {
		synchronized (this.monitor) {
			this.port.createContainers(path, reply);
		}
	}

	@Override
	public void getChildren(String path, @Nullable Runnable watch, Reply<Children> reply) {
		synchronized (this.monitor) {
			this.port.getChildren(path, watch, reply);
		}
	}

	@Override
	public void exists(String path, @Nullable Runnable watch, Reply<NodeStat> reply) {
		synchronized (this.monitor) {
			this.port.exists(path, watch, reply);
		}
	}

	@Override
	public void getData(String path, Reply<byte[]> reply) {
		synchronized (this.monitor) {
			this.port.getData(path, reply);
		}
	}

	@Override
	public void removeWatches(String path) {
		synchronized (this.monitor) {
			this.port.removeWatches(path);
		}
	}

	@Override
	public void delete(String path, @Nullable Reply<Void> reply) {
		synchronized (this.monitor) {
			this.port.delete(path, reply);
		}
	}

	@Override
	public void touch(String path, byte[] data, Reply<NodeStat> reply) {
		synchronized (this.monitor) {
			this.port.touch(path, data, reply);
		}
	}

	@Override
	public void syncAndRead(String path, Reply<NodeStat> reply) {
		synchronized (this.monitor) {
			this.port.syncAndRead(path, reply);
		}
	}

	@Override
	public long sessionId() {
		return this.port.sessionId();
	}

	@Override
	public boolean isConnected() {
		return this.port.isConnected();
	}

	@Override
	public boolean awaitConnected(long nanos) {
		return this.port.isConnected();
	}

	@Override
	public String connectString() {
		return this.port.connectString();
	}

	@Override
	public void addConnectionListener(ConnectionListener listener) {
		synchronized (this.monitor) {
			this.port.addConnectionListener(listener);
		}
	}

	@Override
	public void removeConnectionListener(ConnectionListener listener) {
		synchronized (this.monitor) {
			this.port.removeConnectionListener(listener);
		}
	}

	@Override
	public long nanoTime() {
		return this.port.nanoTime();
	}

	@Override
	public Timer schedule(Runnable task, long nanos) {
		synchronized (this.monitor) {
			return this.port.schedule(task, nanos);
		}
	}

	@Override
	public void execute(Runnable task) {
		synchronized (this.monitor) {
			this.port.execute(task);
		}
	}

	@Override
	public String newProtectedId() {
		synchronized (this.monitor) {
			return this.port.newProtectedId();
		}
	}

}
