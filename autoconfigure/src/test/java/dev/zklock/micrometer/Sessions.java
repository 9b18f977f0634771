package dev.zklock.micrometer;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Ends sessions on the server, as the server does when a session times out.
 */
final class Sessions {

	private Sessions() {
	}

	/**
	 * Attach a second connection to the client's session and close it: the server ends the
	 * session and deletes its ephemeral nodes, and the client learns it on its next contact.
	 */
	static void expire(CuratorFramework client, String connectString) throws Exception {
		ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper twin = new ZooKeeper(connectString, 10_000, (event) -> {
			if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
				connected.countDown();
			}
		}, zk.getSessionId(), zk.getSessionPasswd());
		try {
			if (!connected.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Could not attach to the session to expire it");
			}
		}
		finally {
			twin.close();
		}
	}

}
