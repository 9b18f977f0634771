package dev.zklock.systemtest.components;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;

/**
 * Reads from ZooKeeper, with a client of its own, how many instances take part in a group's
 * election: the election nodes under {@code /zklock/leaders/<group>}.
 */
final class Participants implements AutoCloseable {

	private static final String LEADERS = "/zklock/leaders";

	private final CuratorFramework client;

	Participants(String connectString) {
		this.client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.ensembleTracker(false)
			.sessionTimeoutMs(30_000)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new RetryNTimes(5, 200))
			.build();
		this.client.start();
	}

	/**
	 * Return the number of election nodes of a group.
	 * @param group the group
	 * @return the number of nodes, 0 when the group has none
	 */
	int count(String group) throws Exception {
		try {
			List<String> children = this.client.getChildren().forPath(ZKPaths.makePath(LEADERS, group));
			return children.size();
		}
		catch (KeeperException.NoNodeException ex) {
			return 0;
		}
	}

	@Override
	public void close() {
		this.client.close();
	}

}
