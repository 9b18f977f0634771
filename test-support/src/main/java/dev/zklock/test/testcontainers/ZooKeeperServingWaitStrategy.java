package dev.zklock.test.testcontainers;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;

/**
 * Waits until the ZooKeeper server in the container serves a client: a session is established
 * and a read of the root node succeeds. An open port is not enough: a starting server accepts
 * connections and closes them ("not currently serving requests") until it has loaded its data.
 */
class ZooKeeperServingWaitStrategy extends AbstractWaitStrategy {

	private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);

	private final int clientPort;

	ZooKeeperServingWaitStrategy(int clientPort) {
		this.clientPort = clientPort;
	}

	@Override
	protected void waitUntilReady() {
		String connectString = this.waitStrategyTarget.getHost() + ":"
				+ this.waitStrategyTarget.getMappedPort(this.clientPort);
		long deadline = System.nanoTime() + this.startupTimeout.toNanos();
		Exception last = null;
		while (System.nanoTime() < deadline) {
			try {
				if (serves(connectString)) {
					return;
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new ContainerLaunchException("Interrupted while waiting for ZooKeeper at " + connectString, ex);
			}
			catch (Exception ex) {
				last = ex;
			}
			try {
				Thread.sleep(200);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new ContainerLaunchException("Interrupted while waiting for ZooKeeper at " + connectString, ex);
			}
		}
		throw new ContainerLaunchException("ZooKeeper at " + connectString + " did not serve requests within "
				+ this.startupTimeout.toSeconds() + "s", (last != null) ? last : new IllegalStateException("no answer"));
	}

	private static boolean serves(String connectString) throws Exception {
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper client = new ZooKeeper(connectString, (int) ATTEMPT_TIMEOUT.toMillis() * 5, (event) -> {
			if (event.getState() == KeeperState.SyncConnected) {
				connected.countDown();
			}
		});
		try {
			if (!connected.await(ATTEMPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				return false;
			}
			return client.exists("/", false) != null;
		}
		finally {
			client.close(1000);
		}
	}

}
