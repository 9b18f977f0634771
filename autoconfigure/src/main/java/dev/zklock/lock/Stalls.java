package dev.zklock.lock;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;

/**
 * The lock requests whose last step failed for the connection: each goes on when the connection
 * is back (or, if the client is connected already, after a short pause, so that a request that
 * Curator gave up on is tried again without spinning).
 */
final class Stalls {

	private static final long RETRY_DELAY_MILLIS = 100;

	private final CuratorFramework client;

	private final ScheduledExecutorService scheduler;

	private final Set<NodeAcquisition> stalled = ConcurrentHashMap.newKeySet();

	Stalls(CuratorFramework client, ScheduledExecutorService scheduler) {
		this.client = client;
		this.scheduler = scheduler;
	}

	void add(NodeAcquisition acquisition) {
		this.stalled.add(acquisition);
		if (this.client.getZookeeperClient().isConnected()) {
			this.scheduler.schedule(() -> resume(acquisition), RETRY_DELAY_MILLIS, TimeUnit.MILLISECONDS);
		}
	}

	void remove(NodeAcquisition acquisition) {
		this.stalled.remove(acquisition);
	}

	/**
	 * The connection is back: let every stalled request go on.
	 */
	void connected() {
		for (NodeAcquisition acquisition : List.copyOf(this.stalled)) {
			this.scheduler.execute(() -> resume(acquisition));
		}
	}

	private void resume(NodeAcquisition acquisition) {
		if (this.stalled.remove(acquisition)) {
			acquisition.resume();
		}
	}

}
