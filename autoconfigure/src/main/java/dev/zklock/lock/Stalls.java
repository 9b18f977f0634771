package dev.zklock.lock;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;

/**
 * The lock requests in progress, so that none is forgotten across a connection change: one
 * whose last step failed for the connection goes on when the connection is back (or, if the
 * client is connected already, after a short pause, so that a request Curator gave up on is tried
 * again without spinning), and every other one checks, after a reconnect, whether its node
 * survived (a watch set by an expired session never fires).
 */
final class Stalls {

	private static final long RETRY_DELAY_MILLIS = 100;

	private final CuratorFramework client;

	private final ScheduledExecutorService scheduler;

	private final Set<NodeAcquisition> active = ConcurrentHashMap.newKeySet();

	Stalls(CuratorFramework client, ScheduledExecutorService scheduler) {
		this.client = client;
		this.scheduler = scheduler;
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
		if (this.client.getZookeeperClient().isConnected()) {
			this.scheduler.schedule(acquisition::recheck, RETRY_DELAY_MILLIS, TimeUnit.MILLISECONDS);
		}
	}

	/**
	 * The connection is back: let every request go on or check its node.
	 */
	void connected() {
		for (NodeAcquisition acquisition : List.copyOf(this.active)) {
			this.scheduler.execute(acquisition::recheck);
		}
	}

}
