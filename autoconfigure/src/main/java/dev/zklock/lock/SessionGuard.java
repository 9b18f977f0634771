package dev.zklock.lock;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * Follows the client's connection state on behalf of every lock this process holds or waits for:
 * SUSPENDED puts held locks in doubt, RECONNECTED with the same session makes them valid again,
 * LOST (or a new session) loses them for good. Waiting threads are woken on every change so they
 * can check the connection against their wait time.
 */
final class SessionGuard implements ConnectionStateListener {

	private static final Log logger = LogFactory.getLog(SessionGuard.class);

	private final Set<ActiveLock> held = ConcurrentHashMap.newKeySet();

	private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();

	private final boolean interruptOnLost;

	private final Stalls stalls;

	SessionGuard(boolean interruptOnLost, Stalls stalls) {
		this.interruptOnLost = interruptOnLost;
		this.stalls = stalls;
	}

	Set<ActiveLock> held() {
		return this.held;
	}

	Set<Waiter> waiting() {
		return this.waiting;
	}

	/**
	 * Start guarding a newly acquired lock, checking the connection once more in case it changed
	 * while the lock was being acquired.
	 */
	void add(ActiveLock lock, CuratorFramework client) {
		this.held.add(lock);
		if (!client.getZookeeperClient().isConnected()) {
			lock.suspend();
		}
		else if (currentSessionId(client) != lock.node().sessionId()) {
			lock.lose("the ZooKeeper session changed while the lock was being acquired", false);
		}
	}

	void remove(ActiveLock lock) {
		this.held.remove(lock);
	}

	void addWaiter(Waiter waiter) {
		this.waiting.add(waiter);
	}

	void removeWaiter(Waiter waiter) {
		this.waiting.remove(waiter);
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState newState) {
		switch (newState) {
			case SUSPENDED, READ_ONLY -> {
				logger.warn("Connection to ZooKeeper " + newState + ": " + this.held.size()
						+ " held lock(s) are in doubt and " + this.waiting.size()
						+ " waiting call(s) wait for it within their wait time, until it is restored");
				this.held.forEach(ActiveLock::suspend);
			}
			case RECONNECTED -> {
				long sessionId = currentSessionId(client);
				this.held.forEach((lock) -> lock.reconnected(sessionId));
				if (!this.held.isEmpty()) {
					logger.info("Connection to ZooKeeper RECONNECTED: held locks are valid again if their session "
							+ "survived, lost otherwise");
				}
			}
			case LOST -> {
				logger.warn("ZooKeeper session LOST: " + this.held.size() + " held lock(s) are lost");
				this.held.forEach((lock) -> lock.lose("the ZooKeeper session was lost", this.interruptOnLost));
			}
			default -> {
			}
		}
		this.waiting.forEach(Waiter::signal);
		if (newState.isConnected()) {
			this.stalls.connected();
		}
	}

	private static long currentSessionId(CuratorFramework client) {
		return LockNodes.sessionId(client);
	}

}
