package dev.zklock.lock;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * Follows the client's connection state on behalf of every lock this process holds or waits for:
 * SUSPENDED puts held locks in doubt, RECONNECTED with the same session makes them valid again,
 * LOST (or a new session) loses them for good. Waiting threads are woken on every change so they
 * can check the connection against their wait time.
 */
final class SessionGuard implements ZooKeeperPort.ConnectionListener {

	private static final Log logger = LogFactory.getLog(SessionGuard.class);

	private final OrderedSet<ActiveLock> held = new OrderedSet<>();

	private final OrderedSet<Waiter> waiting = new OrderedSet<>();

	/**
	 * The nodes of {@link #releasedSession} that an operator released: none of them may be
	 * granted again, held or not when the release came.
	 */
	private final Set<String> released = new HashSet<>();

	private long releasedSession;

	private final boolean interruptOnLost;

	private final Stalls stalls;

	private final ZooKeeperPort port;

	SessionGuard(boolean interruptOnLost, Stalls stalls, ZooKeeperPort port) {
		this.interruptOnLost = interruptOnLost;
		this.stalls = stalls;
		this.port = port;
	}

	List<ActiveLock> held() {
		return this.held.snapshot();
	}

	List<Waiter> waiting() {
		return this.waiting.snapshot();
	}

	/**
	 * Start guarding a newly acquired lock, checking the connection once more in case it changed
	 * while the lock was being acquired.
	 */
	void add(ActiveLock lock, ZooKeeperPort port) {
		this.held.add(lock);
		if (isReleased(lock.node())) {
			// The release came before the node was held (its grant was read before the release
			// and handled after it): it is lost before any call uses it.
			loseSafely(lock, "an operator released its node before it was granted", false);
			return;
		}
		if (!port.isConnected()) {
			lock.suspend();
			// RECONNECTED may have been handled between the check and the suspension (the lock
			// was already in the held set): look again, or the lock would stay in doubt until
			// the next connection event.
			if (port.isConnected()) {
				lock.reconnected(port.sessionId());
			}
		}
		else if (port.sessionId() != lock.node().sessionId()) {
			lock.lose("the ZooKeeper session changed while the lock was being acquired", false);
		}
	}

	private synchronized boolean isReleased(LockNode node) {
		return node.sessionId() == this.releasedSession && this.released.contains(node.path());
	}

	/**
	 * Lose the nodes of this session that an operator released from another instance: as on a
	 * lost session, every local holder is told and its call ends with a lost lock, and the key
	 * asks for a new node for its waiters.
	 * @param paths the released nodes' full paths
	 * @param sessionId the session the release names; a node of another session is not touched
	 * @param why what the holders are told
	 * @return how many of the nodes this instance held
	 */
	int loseReleased(Collection<String> paths, long sessionId, String why) {
		synchronized (this) {
			if (this.releasedSession != sessionId) {
				this.released.clear();
				this.releasedSession = sessionId;
			}
			this.released.addAll(paths);
		}
		// Recorded before the held nodes are looked at, and add() looks at the record after
		// adding its node to them: a node granted meanwhile is seen by one side or the other.
		int lost = 0;
		for (ActiveLock lock : this.held.snapshot()) {
			if (lock.node().sessionId() == sessionId && paths.contains(lock.node().path())) {
				loseSafely(lock, why, this.interruptOnLost);
				lost++;
			}
		}
		return lost;
	}

	/**
	 * Lose a lock, whatever its listeners throw: the other locks must be lost too.
	 */
	private static void loseSafely(ActiveLock lock, String why, boolean interrupt) {
		try {
			lock.lose(why, interrupt);
		}
		catch (RuntimeException | Error ex) {
			logger.error("Losing the lock on key '" + lock.key() + "' failed; its state is LOST", ex);
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
	public void changed(ZooKeeperPort.Connection newState) {
		switch (newState) {
			case SUSPENDED -> {
				logger.warn("Connection to ZooKeeper " + newState + ": " + this.held.size()
						+ " held lock(s) are in doubt and " + this.waiting.size()
						+ " waiting call(s) wait for it within their wait time, until it is restored");
				this.held.snapshot().forEach(ActiveLock::suspend);
			}
			case RECONNECTED -> {
				long sessionId = this.port.sessionId();
				this.held.snapshot().forEach((lock) -> {
					try {
						lock.reconnected(sessionId);
					}
					catch (RuntimeException | Error ex) {
						logger.error("Revalidating the lock on key '" + lock.key() + "' failed", ex);
					}
				});
				if (!this.held.isEmpty()) {
					logger.info("Connection to ZooKeeper RECONNECTED: held locks are valid again if their session "
							+ "survived, lost otherwise");
				}
			}
			case LOST -> {
				logger.warn("ZooKeeper session LOST: " + this.held.size() + " held lock(s) are lost");
				this.held.snapshot().forEach((lock) -> loseSafely(lock, "the ZooKeeper session was lost", this.interruptOnLost));
			}
			default -> {
			}
		}
		if (newState == ZooKeeperPort.Connection.CONNECTED || newState == ZooKeeperPort.Connection.RECONNECTED) {
			this.stalls.connected();
		}
	}

}
