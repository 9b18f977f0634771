package dev.zklock.lock.aop;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.lock.LockKeys;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A ZooKeeper client with its own session, as another instance of the application would have:
 * it counts the nodes under a lock and holds locks on a thread of its own.
 */
final class ZooKeeperProbe implements AutoCloseable {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final CuratorFramework client;

	private final String basePath;

	private final ZkLockTemplate template;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	ZooKeeperProbe(String connectString, String basePath) {
		this.client = CuratorFrameworkFactory.newClient(connectString, new RetryOneTime(100));
		this.client.start();
		this.basePath = basePath;
		this.template = new ZkLockTemplate(this.client, basePath, TIMEOUT, false);
	}

	/**
	 * Return how many holders and waiters have a node under the key's lock (none when the key's
	 * node is gone, which the server does to an empty container node at any time).
	 */
	int nodes(String key) throws Exception {
		String path = ZKPaths.makePath(this.basePath, LockKeys.encode(key));
		try {
			return this.client.getChildren().forPath(path).size();
		}
		catch (KeeperException.NoNodeException ex) {
			return 0;
		}
	}

	/**
	 * Take the key's lock on another thread and hold it until the returned hold is closed.
	 */
	Hold hold(String key) throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holder = this.executor.submit(() -> this.template.execute(key, LockMode.EXCLUSIVE, TIMEOUT, (lock) -> {
			held.countDown();
			return release.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}));
		assertThat(held.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).as("lock on %s taken", key).isTrue();
		return new Hold(release, holder);
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
		this.template.close();
		this.client.close();
	}

	/**
	 * A lock held by the probe.
	 */
	record Hold(CountDownLatch release, Future<?> holder) implements AutoCloseable {

		@Override
		public void close() throws Exception {
			this.release.countDown();
			this.holder.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}

	}

}
