package dev.zklock.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;

import dev.zklock.lock.LockKeys;

/**
 * Creates many keys under a lock base path, each with one exclusive lock node that no session
 * owns (a persistent node named as a lock node), in transactions of {@value #BATCH} creates.
 */
public final class ManyKeys {

	public static final int BATCH = 1000;

	private static final int IN_FLIGHT = 8;

	private ManyKeys() {
	}

	/**
	 * Return the key of the given number: 40 characters, in key order as in number order.
	 */
	public static String key(int number) {
		return String.format("stock:%034d", number);
	}

	/**
	 * Create keys {@code 0} to {@code count - 1}, each holding one lock node: up to
	 * {@value #IN_FLIGHT} transactions at a time, each awaited at most a minute.
	 */
	public static void create(CuratorFramework client, String basePath, int count) throws Exception {
		client.create().creatingParentsIfNeeded().forPath(basePath);
		Semaphore inFlight = new Semaphore(IN_FLIGHT);
		AtomicReference<String> failure = new AtomicReference<>();
		List<CuratorOp> ops = new ArrayList<>(BATCH);
		for (int i = 0; i < count; i++) {
			String keyPath = ZKPaths.makePath(basePath, LockKeys.encode(key(i)));
			ops.add(client.transactionOp().create().withMode(CreateMode.CONTAINER).forPath(keyPath));
			ops.add(client.transactionOp().create().forPath(
					ZKPaths.makePath(keyPath, "_c_" + UUID.randomUUID() + "-__WRIT__0000000000"), new byte[0]));
			if (ops.size() >= BATCH || i == count - 1) {
				acquire(inFlight, 1);
				client.transaction().inBackground((c, event) -> {
					if (event.getResultCode() != 0) {
						failure.compareAndSet(null, "transaction failed with code " + event.getResultCode());
					}
					inFlight.release();
				}).forOperations(new ArrayList<>(ops));
				ops.clear();
			}
		}
		acquire(inFlight, IN_FLIGHT);
		if (failure.get() != null) {
			throw new IllegalStateException(failure.get());
		}
	}

	private static void acquire(Semaphore semaphore, int permits) throws InterruptedException {
		if (!semaphore.tryAcquire(permits, 1, TimeUnit.MINUTES)) {
			throw new IllegalStateException("A transaction did not complete within a minute");
		}
	}

}
