package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.awaitility.Awaitility;

import dev.zklock.test.ZooKeeperTestServer;


/**
 * A conformance script on a real ZooKeeper server of its own, in this JVM on loopback: a
 * {@link CuratorPort} on a Curator client per session. The server is the script's alone, so that
 * every transaction between two zxids the script sees is one of the script's; its container
 * manager checks every {@code containerCheck} (so rarely, when a script does not want it, that it
 * never runs).
 */
final class RealConformanceSide extends ConformanceSide {

	private static final String CONTAINER_CHECK = "znode.container.checkIntervalMs";

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final ZooKeeperTestServer server;

	private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

	private final Map<String, CuratorFramework> clients = new HashMap<>();

	private final List<CuratorFramework> all = new ArrayList<>();

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
		this.observer = client();
	}

	@Override
	ZooKeeperPort connect(String name) {
		CuratorFramework client = client();
		this.clients.put(name, client);
		return new CuratorPort(client, this.scheduler);
	}

	private CuratorFramework client() {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(this.server.getConnectString())
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

	@Override
	void await(ConformanceClient.Step<?> step) {
		try {
			if (!step.answered().await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new AssertionError("The server never answered " + step.request());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError(ex);
		}
	}

	@Override
	public void close() throws InterruptedException {
		try {
			for (CuratorFramework client : this.all) {
				client.close();
			}
			this.scheduler.shutdownNow();
			this.scheduler.awaitTermination(10, TimeUnit.SECONDS);
		}
		finally {
			this.server.close();
		}
	}

}
