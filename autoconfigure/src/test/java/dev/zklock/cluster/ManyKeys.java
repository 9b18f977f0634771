package dev.zklock.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;

import dev.zklock.lock.LockKeys;

/**
 * Creates many keys under a lock base path, each with one exclusive lock node that no session
 * owns (a persistent node named as a lock node), in transactions of {@value #BATCH} creates.
 */
final class ManyKeys {

	static final int BATCH = 1000;

	private ManyKeys() {
	}

	/**
	 * Return the key of the given number: 40 characters, in key order as in number order.
	 */
	static String key(int number) {
		return String.format("stock:%034d", number);
	}

	/**
	 * Create keys {@code 0} to {@code count - 1}, each holding one lock node.
	 */
	static void create(CuratorFramework client, String basePath, int count) throws Exception {
		client.create().creatingParentsIfNeeded().forPath(basePath);
		List<CuratorOp> ops = new ArrayList<>(BATCH);
		for (int i = 0; i < count; i++) {
			String keyPath = ZKPaths.makePath(basePath, LockKeys.encode(key(i)));
			ops.add(client.transactionOp().create().withMode(CreateMode.CONTAINER).forPath(keyPath));
			ops.add(client.transactionOp().create().forPath(
					ZKPaths.makePath(keyPath, "_c_" + UUID.randomUUID() + "-__WRIT__0000000000"), new byte[0]));
			if (ops.size() >= BATCH || i == count - 1) {
				client.transaction().forOperations(ops);
				ops.clear();
			}
		}
	}

}
