package dev.zklock.benchmarks.library;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;

/**
 * Two transactions a cycle, without a lock around them: the key's container and a node under it
 * created together (as zklock's first use of a key creates them, a node created with its parent
 * being its only child), then both deleted together, every reply handed to the waiting caller by
 * ZooKeeper's event thread. The request shape of an uncontended call whose release takes the key
 * node away with the last lock node, so that the next call is a first use again. It excludes
 * nobody: a yardstick, not a lock.
 */
final class TwoTransactionsCycle implements ExclusiveLocks {

	private static final byte[] NO_DATA = new byte[0];

	private final CuratorFramework client;

	private final String basePath;

	private volatile boolean baseMade;

	TwoTransactionsCycle(CuratorFramework client, String basePath) {
		this.client = client;
		this.basePath = basePath;
	}

	@Override
	public void runExclusive(String key, Runnable work) throws Exception {
		if (!this.baseMade) {
			this.client.createContainers(this.basePath);
			this.baseMade = true;
		}
		String keyPath = ZKPaths.makePath(this.basePath, key);
		List<CuratorTransactionResult> created = commit(
				this.client.transactionOp().create().withMode(CreateMode.CONTAINER).forPath(keyPath, NO_DATA),
				this.client.transactionOp()
					.create()
					.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
					.forPath(ZKPaths.makePath(keyPath, "lock-"), NO_DATA));
		String path = created.get(1).getResultPath();
		try {
			work.run();
		}
		finally {
			commit(this.client.transactionOp().delete().forPath(path),
					this.client.transactionOp().delete().forPath(keyPath));
		}
	}

	private List<CuratorTransactionResult> commit(CuratorOp... operations) throws Exception {
		CompletableFuture<List<CuratorTransactionResult>> done = new CompletableFuture<>();
		this.client.transaction()
			.inBackground((client, event) -> RequestShapeCycle.answer(event, done, event.getOpResults()))
			.forOperations(operations);
		try {
			return done.get();
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
	}

}
