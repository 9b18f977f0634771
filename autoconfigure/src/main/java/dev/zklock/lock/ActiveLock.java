package dev.zklock.lock;

import java.time.Duration;
import java.time.Instant;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;

import dev.zklock.LockMode;

/**
 * A lock this process holds: its node, its holder, and whether it is certainly still held.
 * Connection changes move it between {@code VALID}, {@code IN_DOUBT} and {@code LOST}; after a
 * possible process pause it is trusted again only once the server has confirmed it.
 */
final class ActiveLock {

	private static final Log logger = LogFactory.getLog(ActiveLock.class);

	private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(5);

	enum State {

		VALID, IN_DOUBT, LOST

	}

	private final String key;

	private final LockMode mode;

	private final LockNode node;

	private final Thread holder;

	private final Instant since = Instant.now();

	private final CuratorFramework client;

	private final PauseMonitor pauseMonitor;

	private final LockCallListener listener;

	private volatile State state = State.VALID;

	private volatile String reason = "";

	private volatile long confirmedAt = System.nanoTime();

	ActiveLock(String key, LockMode mode, LockNode node, CuratorFramework client, PauseMonitor pauseMonitor,
			LockCallListener listener) {
		this.key = key;
		this.mode = mode;
		this.node = node;
		this.holder = Thread.currentThread();
		this.client = client;
		this.pauseMonitor = pauseMonitor;
		this.listener = listener;
	}

	String key() {
		return this.key;
	}

	LockMode mode() {
		return this.mode;
	}

	LockNode node() {
		return this.node;
	}

	Thread holder() {
		return this.holder;
	}

	Instant since() {
		return this.since;
	}

	State state() {
		return this.state;
	}

	String reason() {
		return this.reason;
	}

	/**
	 * Return whether the lock is certainly held, asking the server when a process pause may have
	 * outlasted the session.
	 */
	boolean isValid() {
		if (this.state != State.VALID) {
			return false;
		}
		if (!this.pauseMonitor.mayHavePausedSince(this.confirmedAt)) {
			return true;
		}
		return confirm();
	}

	/**
	 * Return whether the lock is held as far as this process knows, without asking the server.
	 */
	boolean isValidLocally() {
		return this.state == State.VALID;
	}

	synchronized void suspend() {
		if (this.state == State.VALID) {
			this.state = State.IN_DOUBT;
			this.reason = "the connection to ZooKeeper was suspended and has not been restored";
		}
	}

	synchronized void reconnected(long sessionId) {
		if (this.state == State.IN_DOUBT) {
			if (sessionId == this.node.sessionId()) {
				this.state = State.VALID;
				this.reason = "";
			}
			else {
				lose("the connection came back with a new ZooKeeper session", false);
			}
		}
	}

	synchronized void lose(String why, boolean interrupt) {
		if (this.state == State.LOST) {
			return;
		}
		this.state = State.LOST;
		this.reason = why;
		logger.error("Lock on key '" + this.key + "' held by thread '" + this.holder.getName() + "' was lost: " + why);
		if (interrupt) {
			this.holder.interrupt();
		}
		this.listener.lockLost(this.key, this.mode);
	}

	private boolean confirm() {
		long started = System.nanoTime();
		try {
			Stat stat = NodeConfirmation.nodeStat(this.client, this.node.path(), CONFIRM_TIMEOUT);
			if (stat == null || stat.getEphemeralOwner() != this.node.sessionId()) {
				lose("its node is gone from ZooKeeper (the session expired during a process pause)", false);
				return false;
			}
			this.confirmedAt = started;
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return inDoubtAfterPause();
		}
		catch (Exception ex) {
			return inDoubtAfterPause();
		}
	}

	private boolean inDoubtAfterPause() {
		synchronized (this) {
			if (this.state == State.VALID) {
				this.state = State.IN_DOUBT;
				this.reason = "the process paused and ZooKeeper could not confirm the lock afterwards";
			}
		}
		return false;
	}

}
