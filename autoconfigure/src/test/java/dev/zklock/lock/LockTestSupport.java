package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

import dev.zklock.ZkLockTemplate;
import dev.zklock.test.ZooKeeperTestServer;

/**
 * Clients and templates for lock tests: each template has its own client, so its own session,
 * as separate application instances would.
 */
final class LockTestSupport implements AutoCloseable {

	static final String BASE = "/zklock/locks";

	private final ZooKeeperTestServer server;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	LockTestSupport(ZooKeeperTestServer server) {
		this.server = server;
	}

	CuratorFramework client(Duration sessionTimeout) {
		return client(this.server.getConnectString(), sessionTimeout);
	}

	/**
	 * Return a client of the test server reached through the given address (a proxy).
	 */
	CuratorFramework client(String connectString, Duration sessionTimeout) {
		return client(connectString, sessionTimeout, (builder) -> {
		});
	}

	/**
	 * Return a client of the test server, built with what the customizer adds.
	 */
	CuratorFramework client(Consumer<CuratorFrameworkFactory.Builder> customizer) {
		return client(this.server.getConnectString(), Duration.ofSeconds(10), customizer);
	}

	private CuratorFramework client(String connectString, Duration sessionTimeout,
			Consumer<CuratorFrameworkFactory.Builder> customizer) {
		CuratorFramework client = connectedClient(connectString, sessionTimeout, customizer);
		this.closeables.add(0, client);
		return client;
	}

	/**
	 * Return a started client of a server, once it is connected (closed if it does not connect
	 * within 10 s): a lock request made before a client's first session starts again, with a new
	 * node, when the session comes. The caller closes it.
	 * @param connectString the server's address
	 * @param sessionTimeout the session timeout
	 * @param customizer what to add to the client's builder
	 * @return the client
	 */
	static CuratorFramework connectedClient(String connectString, Duration sessionTimeout,
			Consumer<CuratorFrameworkFactory.Builder> customizer) {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs((int) sessionTimeout.toMillis())
			.connectionTimeoutMs(5000)
			.retryPolicy(new ExponentialBackoffRetry(50, 5, 1000));
		customizer.accept(builder);
		CuratorFramework client = builder.build();
		client.start();
		try {
			if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
				client.close();
				throw new IllegalStateException("Test client did not connect");
			}
		}
		catch (InterruptedException ex) {
			client.close();
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return client;
	}

	CuratorFramework client() {
		return client(Duration.ofSeconds(10));
	}

	/**
	 * The settings of templates that do not name theirs: the defaults, or one node per call when
	 * the build runs the lock tests that way ({@code zklock.test.lock-settings=per-call}).
	 */
	static LockSettings defaultSettings() {
		return "per-call".equals(System.getProperty("zklock.test.lock-settings")) ? LockSettings.PER_CALL
				: LockSettings.DEFAULTS;
	}

	ZkLockTemplate template(CuratorFramework client, boolean interruptOnLost) {
		ZkLockTemplate template = new ZkLockTemplate(client, BASE, Duration.ofSeconds(10), interruptOnLost,
				LockCallListener.NONE, defaultSettings());
		this.closeables.add(0, template);
		return template;
	}

	ZkLockTemplate template(CuratorFramework client, LockCallListener listener) {
		ZkLockTemplate template = new ZkLockTemplate(client, BASE, Duration.ofSeconds(10), false, listener,
				defaultSettings());
		this.closeables.add(0, template);
		return template;
	}

	ZkLockTemplate template(CuratorFramework client, LockSettings settings) {
		ZkLockTemplate template = new ZkLockTemplate(client, BASE, Duration.ofSeconds(10), false, LockCallListener.NONE,
				settings);
		this.closeables.add(0, template);
		return template;
	}

	/**
	 * Return the zxid of a write made now: the number of writes between two calls is the
	 * difference less one.
	 */
	static long writeNow(CuratorFramework client) throws Exception {
		Stat stat = new Stat();
		client.create().storingStatIn(stat).withMode(org.apache.zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath("/zxid-probe-");
		return stat.getCzxid();
	}

	/**
	 * Return the zxid of the last write under a path (creates, deletes and sets of the node and
	 * everything below it), whoever made it; unlike {@link #writeNow}, writes elsewhere on the
	 * server (other tests' sessions ending) do not count.
	 */
	static long lastWriteUnder(CuratorFramework client, String path) throws Exception {
		Stat stat = client.checkExists().forPath(path);
		if (stat == null) {
			return -1;
		}
		long last = Math.max(stat.getMzxid(), stat.getPzxid());
		List<String> children;
		try {
			children = client.getChildren().forPath(path);
		}
		catch (org.apache.zookeeper.KeeperException.NoNodeException ex) {
			return last;
		}
		for (String child : children) {
			last = Math.max(last, lastWriteUnder(client, ZKPaths.makePath(path, child)));
		}
		return last;
	}

	ZkLockTemplate template() {
		return template(client(), false);
	}

	/**
	 * Return the number of children of a node, 0 if it is gone meanwhile.
	 */
	static int childrenOrNone(CuratorFramework client, String path) throws Exception {
		try {
			return client.getChildren().forPath(path).size();
		}
		catch (org.apache.zookeeper.KeeperException.NoNodeException ex) {
			return 0;
		}
	}

	/**
	 * Return the lock nodes under the key's node (none when the key's node is gone, which the
	 * server does to an empty container node at any time).
	 */
	static List<String> lockNodes(CuratorFramework client, String key) throws Exception {
		String path = ZKPaths.makePath(BASE, LockKeys.encode(key));
		try {
			return client.getChildren().forPath(path);
		}
		catch (org.apache.zookeeper.KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	/**
	 * End a client's session on the server, as the server does when the session times out:
	 * its ephemeral nodes are deleted, and the client learns it on its next contact.
	 */
	void expireSession(CuratorFramework client) throws Exception {
		ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
		expiredSessions.put(client, zk.getSessionId());
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper twin = new ZooKeeper(this.server.getConnectString(), 10_000, (event) -> {
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

	private static final java.util.Map<CuratorFramework, Long> expiredSessions = new java.util.concurrent.ConcurrentHashMap<>();

	/**
	 * Return whether the client has a session other than the one last expired by
	 * {@link #expireSession}.
	 */
	static boolean sessionChanged(CuratorFramework client) throws Exception {
		Long expired = expiredSessions.get(client);
		long current = client.getZookeeperClient().getZooKeeper().getSessionId();
		return current != 0 && (expired == null || current != expired);
	}

	@Override
	public void close() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

}
