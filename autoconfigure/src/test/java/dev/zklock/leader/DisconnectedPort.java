package dev.zklock.leader;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * A {@link ZooKeeperPort} whose client has not connected yet: it only says so, and keeps the
 * connection listeners it is given, which are the elections that take part (each adds its own
 * when it is started and removes it when it is stopped, and creates its node once the
 * connection is there). It is no model of ZooKeeper: every request fails the test, and an
 * election that is not connected sends none. For the thread races of {@link LeaderElections}
 * that Lincheck's model checker explores.
 */
final class DisconnectedPort implements ZooKeeperPort {

	private final Set<ConnectionListener> listeners = ConcurrentHashMap.newKeySet();

	/**
	 * Return how many elections take part: they listen for the connection.
	 */
	int listeners() {
		return this.listeners.size();
	}

	@Override
	public boolean isConnected() {
		return false;
	}

	@Override
	public void addConnectionListener(ConnectionListener listener) {
		this.listeners.add(listener);
	}

	@Override
	public void removeConnectionListener(ConnectionListener listener) {
		this.listeners.remove(listener);
	}

	@Override
	public long sessionId() {
		return 0;
	}

	@Override
	public long nanoTime() {
		return 0;
	}

	@Override
	public String connectString() {
		return "disconnected";
	}

	@Override
	public boolean awaitConnected(long nanos) {
		return false;
	}

	@Override
	public void createLockNode(String path, byte[] data, Reply<Created> reply) {
		throw unsupported();
	}

	@Override
	public void createKeyAndLockNode(String keyPath, String lockNodePath, byte[] data, Reply<KeyCreated> reply) {
		throw unsupported();
	}

	@Override
	public void createSequentialNode(String path, byte[] data, Reply<Created> reply) {
		throw unsupported();
	}

	@Override
	public void createContainers(String path, Reply<Void> reply) {
		throw unsupported();
	}

	@Override
	public void getChildren(String path, @Nullable Runnable watch, Reply<Children> reply) {
		throw unsupported();
	}

	@Override
	public void exists(String path, @Nullable Runnable watch, Reply<NodeStat> reply) {
		throw unsupported();
	}

	@Override
	public void getData(String path, Reply<byte[]> reply) {
		throw unsupported();
	}

	@Override
	public void removeWatches(String path) {
		throw unsupported();
	}

	@Override
	public void deleteLockAndKeyNode(String lockNodePath, String keyPath, Reply<Void> reply) {
		throw unsupported();
	}

	@Override
	public void delete(String path, @Nullable Reply<Void> reply) {
		throw unsupported();
	}

	@Override
	public void touch(String path, byte[] data, Reply<NodeStat> reply) {
		throw unsupported();
	}

	@Override
	public void syncAndRead(String path, Reply<NodeStat> reply) {
		throw unsupported();
	}

	@Override
	public Timer schedule(Runnable task, long nanos) {
		throw unsupported();
	}

	@Override
	public void execute(Runnable task) {
		throw unsupported();
	}

	@Override
	public String newProtectedId() {
		throw unsupported();
	}

	private static UnsupportedOperationException unsupported() {
		return new UnsupportedOperationException("Not connected: an election sends no request before it connects");
	}

}
