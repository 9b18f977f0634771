package dev.zklock.lock;

import java.util.concurrent.TimeUnit;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * The lock requests in progress, so that none is forgotten across a connection change: one
 * whose last step failed for the connection goes on when the connection is back (or, if the
 * client is connected already, after a short pause, so that a request Curator gave up on is tried
 * again without spinning), and every other one checks, after a reconnect, whether its node
 * survived (a watch set by an expired session never fires).
 */
final class Stalls {

	static final long RETRY_DELAY_MILLIS = 100;

	private final ZooKeeperPort port;

	private final OrderedSet<NodeAcquisition> active = new OrderedSet<>();

	Stalls(ZooKeeperPort port) {
		this.port = port;
	}

	/**
	 * A request started.
	 */
	void started(NodeAcquisition acquisition) {
		this.active.add(acquisition);
	}

	/**
	 * A request ended: its node was granted, or it was abandoned.
	 */
	void ended(NodeAcquisition acquisition) {
		this.active.remove(acquisition);
	}

	/**
	 * A request's last step failed for the connection.
	 */
	void stalled(NodeAcquisition acquisition) {
		if (this.port.isConnected()) {
			this.port.schedule(acquisition::recheck, TimeUnit.MILLISECONDS.toNanos(RETRY_DELAY_MILLIS));
		}
	}

	/**
	 * The connection is back: let every request go on or check its node.
	 */
	void connected() {
		for (NodeAcquisition acquisition : this.active.snapshot()) {
			this.port.execute(acquisition::recheck);
		}
	}

}
