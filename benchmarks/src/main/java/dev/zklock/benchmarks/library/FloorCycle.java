package dev.zklock.benchmarks.library;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;

/**
 * The floor: the least ZooKeeper work any lock cycle can cost. It creates an
 * EPHEMERAL_SEQUENTIAL child of the key's node and deletes it, both synchronously, without
 * looking at the other children: it excludes nobody, so it is a yardstick, not a lock.
 */
final class FloorCycle implements ExclusiveLocks {

	private static final byte[] NO_DATA = new byte[0];

	private final CuratorFramework client;

	private final String basePath;

	FloorCycle(CuratorFramework client, String basePath) {
		this.client = client;
		this.basePath = basePath;
	}

	@Override
	public void runExclusive(String key, Runnable work) throws Exception {
		String path = this.client.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath(ZKPaths.makePath(this.basePath, key, "lock-"), NO_DATA);
		try {
			work.run();
		}
		finally {
			this.client.delete().forPath(path);
		}
	}

}
