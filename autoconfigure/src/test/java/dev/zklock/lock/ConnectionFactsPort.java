package dev.zklock.lock;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * A {@link ZooKeeperPort} that only states connection facts (whether the client is connected,
 * its session id, a clock), and answers a write to a node at once, on the calling thread, with a
 * later zxid. It is no model of ZooKeeper's lock semantics: every other request fails the test.
 * For {@link SessionGuardRaceTests}, whose controlled scheduler explores the interleavings of the
 * threads of the lock core's own classes over these facts.
 */
final class ConnectionFactsPort implements ZooKeeperPort {

	private volatile boolean connected;

	private volatile long sessionId;

	private final AtomicLong zxid;

	private final AtomicLong clock = new AtomicLong();

	/**
	 * Create the port.
	 * @param connected whether the client is connected at first
	 * @param sessionId the client's session
	 * @param lastZxid the last zxid of the ensemble: the first write answers with the next one
	 */
	ConnectionFactsPort(boolean connected, long sessionId, long lastZxid) {
		this.connected = connected;
		this.sessionId = sessionId;
		this.zxid = new AtomicLong(lastZxid);
	}

	/**
	 * The client's connection came back (before its listeners are told, as Curator does).
	 */
	void connect() {
		this.connected = true;
	}

	@Override
	public boolean isConnected() {
		return this.connected;
	}

	@Override
	public long sessionId() {
		return this.sessionId;
	}

	@Override
	public void touch(String path, byte[] data, Reply<NodeStat> reply) {
		long mzxid = this.zxid.incrementAndGet();
		reply.done(Code.OK, new NodeStat(0, mzxid, 0, this.sessionId));
	}

	@Override
	public long nanoTime() {
		return this.clock.incrementAndGet();
	}

	@Override
	public Timer schedule(Runnable task, long nanos) {
		// Only the timeouts of answers, which come at once here: never run.
		return () -> {
		};
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
	public void deleteLockAndKeyNode(String lockNodePath, String keyPath, Reply<Void> reply) {
		throw unsupported();
	}

	@Override
	public void delete(String path, @Nullable Reply<Void> reply) {
		throw unsupported();
	}

	@Override
	public void createSequentialNode(String path, byte[] data, Reply<Created> reply) {
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
	public void syncAndRead(String path, Reply<NodeStat> reply) {
		throw unsupported();
	}

	@Override
	public boolean awaitConnected(long nanos) {
		throw unsupported();
	}

	@Override
	public String connectString() {
		return "connection-facts";
	}

	@Override
	public void addConnectionListener(ConnectionListener listener) {
		throw unsupported();
	}

	@Override
	public void removeConnectionListener(ConnectionListener listener) {
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
		return new UnsupportedOperationException("Not a connection fact: the races explored here make no request");
	}

}
