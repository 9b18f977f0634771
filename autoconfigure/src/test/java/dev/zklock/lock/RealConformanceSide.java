package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.awaitility.Awaitility;

import dev.zklock.test.ChaosProxy;
import dev.zklock.test.ZooKeeperTestServer;
import dev.zklock.zookeeper.CuratorPort;
import dev.zklock.zookeeper.ZooKeeperPort;


/**
 * A conformance script on a real ZooKeeper server of its own, in this JVM on loopback: a
 * {@link CuratorPort} on a Curator client per session, each through a proxy of its own that can
 * break its connection. The server is the script's alone, so that every transaction between two
 * zxids the script sees is one of the script's; its container manager checks every
 * {@code containerCheck} (so rarely, when a script does not want it, that it never runs).
 */
final class RealConformanceSide extends ConformanceSide {

	private static final String CONTAINER_CHECK = "znode.container.checkIntervalMs";

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final ZooKeeperTestServer server;

	private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

	private final Map<String, CuratorFramework> clients = new HashMap<>();

	private final List<CuratorFramework> all = new ArrayList<>();

	private final Map<String, ChaosProxy> proxies = new HashMap<>();

	private final CuratorFramework observer;

	RealConformanceSide(Duration containerCheck) {
		// Read once, when the server starts its container manager (before start returns).
		String previous = System.getProperty(CONTAINER_CHECK);
		System.setProperty(CONTAINER_CHECK, String.valueOf(containerCheck.toMillis()));
		try {
			this.server = ZooKeeperTestServer.start(500);
		}
		finally {
			if (previous != null) {
				System.setProperty(CONTAINER_CHECK, previous);
			}
			else {
				System.clearProperty(CONTAINER_CHECK);
			}
		}
		// Opened before the script starts: its session is not among the script's transactions.
		try {
			this.observer = client(this.server.getConnectString());
		}
		catch (RuntimeException ex) {
			this.server.close();
			throw ex;
		}
	}

	@Override
	ZooKeeperPort connect(String name) {
		ChaosProxy proxy = ChaosProxy.start(this.server.getConnectString());
		this.proxies.put(name, proxy);
		CuratorFramework client = client(proxy.connectString());
		this.clients.put(name, client);
		return new CuratorPort(client, this.scheduler);
	}

	private CuratorFramework client(String connectString) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(10_000)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new ExponentialBackoffRetry(50, 3, 500))
			.build();
		this.all.add(client);
		client.start();
		try {
			if (!client.blockUntilConnected((int) WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("No connection to the test server");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return client;
	}

	@Override
	void disconnect(ConformanceClient client) {
		// ZooKeeper's close: one transaction ends the session and deletes its ephemeral nodes,
		// as at an expiry; answered before close returns.
		this.clients.remove(client.name()).close();
	}

	@Override
	void reap(String gone) {
		Awaitility.await().atMost(WAIT)
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.observer.checkExists().forPath(gone) == null);
	}

	/**
	 * Attach a second connection to the session and close it: the server ends the session in one
	 * transaction and closes the client's connection too.
	 */
	@Override
	void expireSession(ConformanceClient client) {
		try {
			ZooKeeper zooKeeper = this.clients.get(client.name()).getZookeeperClient().getZooKeeper();
			CountDownLatch connected = new CountDownLatch(1);
			ZooKeeper twin = new ZooKeeper(this.server.getConnectString(), 10_000, (event) -> {
				if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
					connected.countDown();
				}
			}, zooKeeper.getSessionId(), zooKeeper.getSessionPasswd());
			try {
				if (!connected.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException("Could not attach to the session to end it");
				}
			}
			finally {
				twin.close();
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	void drop(ConformanceClient client) {
		// Reset and refuse: the client sees its connection fail at once, and cannot come back.
		this.proxies.get(client.name()).refuse();
	}

	@Override
	void restore(ConformanceClient client) {
		this.proxies.get(client.name()).heal();
	}

	@Override
	void await(BooleanSupplier done, String what) {
		Awaitility.await(what).atMost(WAIT).pollInterval(Duration.ofMillis(2)).until(done::getAsBoolean);
	}

	@Override
	public void close() throws InterruptedException {
		try {
			for (CuratorFramework client : this.all) {
				client.close();
			}
			this.proxies.values().forEach(ChaosProxy::close);
			this.scheduler.shutdownNow();
			this.scheduler.awaitTermination(10, TimeUnit.SECONDS);
		}
		finally {
			this.server.close();
		}
	}

}
