package dev.zklock.systemtest;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.zklock.test.ChaosProxy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryForever;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a ZooKeeper client connected through a {@link ChaosProxy} sees a blackhole as a
 * partition and a cut as a connection loss.
 */
class ChaosProxyZooKeeperTests {

	private static final int SESSION_TIMEOUT_MILLIS = 2000;


	/**

	 * Long enough for a client to reconnect after a cut on a busy machine: the cut must not cost the

	 * session.

	 */

	private static final int CUT_SESSION_TIMEOUT_MILLIS = 10_000;

	private static final int TICK_MILLIS = 250;

	// A server of its own: the test-support extension cannot start one on this branch yet.
	private static TestingServer server;

	// ZooKeeper writes a configuration file beside the data folder: both in a folder JUnit deletes.
	@TempDir
	static Path folder;

	@BeforeAll
	static void startServer() throws Exception {
		String loopback = InetAddress.getLoopbackAddress().getHostAddress();
		Map<String, Object> properties = Map.of("clientPortAddress", loopback, "minSessionTimeout",
				String.valueOf(2 * TICK_MILLIS), "admin.enableServer", "false");
		server = new TestingServer(new InstanceSpec(folder.resolve("data").toFile(), -1, -1, -1, true, -1, TICK_MILLIS, 0, properties, loopback),
				true);
	}

	@AfterAll
	static void stopServer() throws IOException {
		server.close();
	}

	@Test
	void aBlackholeSuspendsThenLosesTheSessionAndHealReconnects() throws Exception {
		BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
		try (ChaosProxy proxy = ChaosProxy.start(connectString());
				CuratorFramework observer = client(connectString(), new LinkedBlockingQueue<>());
				CuratorFramework partitioned = client(proxy.connectString(), states)) {
			partitioned.create().withMode(CreateMode.EPHEMERAL).forPath("/partitioned");
			long session = partitioned.getZookeeperClient().getZooKeeper().getSessionId();
			proxy.blackhole();
			assertThat(states.poll(SESSION_TIMEOUT_MILLIS * 2, TimeUnit.MILLISECONDS)).isEqualTo(ConnectionState.SUSPENDED);
			assertThat(states.poll(SESSION_TIMEOUT_MILLIS * 3, TimeUnit.MILLISECONDS)).isEqualTo(ConnectionState.LOST);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> observer.checkExists().forPath("/partitioned") == null);
			proxy.heal();
			assertThat(states.poll(10, TimeUnit.SECONDS)).isEqualTo(ConnectionState.RECONNECTED);
			assertThat(partitioned.getZookeeperClient().getZooKeeper().getSessionId()).isNotEqualTo(session);
		}
	}

	@Test
	void aCutSuspendsAndReconnectsTheSameSession() throws Exception {
		BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
		try (ChaosProxy proxy = ChaosProxy.start(connectString());
				CuratorFramework client = client(proxy.connectString(), states, CUT_SESSION_TIMEOUT_MILLIS)) {
			client.create().withMode(CreateMode.EPHEMERAL).forPath("/cut");
			long session = client.getZookeeperClient().getZooKeeper().getSessionId();
			proxy.cutConnections();
			assertThat(states.poll(10, TimeUnit.SECONDS)).isEqualTo(ConnectionState.SUSPENDED);
			assertThat(states.poll(10, TimeUnit.SECONDS)).isEqualTo(ConnectionState.RECONNECTED);
			assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(session);
			assertThat(client.checkExists().forPath("/cut")).isNotNull();
		}
	}

	@Test
	void aDelaySlowsEveryRoundTripWithoutLosingTheSessionAndEndsWhenLifted() throws Exception {
		BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
		try (ChaosProxy proxy = ChaosProxy.start(connectString());
				CuratorFramework client = client(proxy.connectString(), states, CUT_SESSION_TIMEOUT_MILLIS)) {
			client.create().forPath("/slow", new byte[0]);
			proxy.delay(Duration.ofMillis(200));
			for (int i = 0; i < 5; i++) {
				long start = System.nanoTime();
				client.setData().forPath("/slow", new byte[] { (byte) i });
				assertThat(Duration.ofNanos(System.nanoTime() - start)).as("a round trip through a delay of 200 ms each way")
					.isGreaterThanOrEqualTo(Duration.ofMillis(400));
			}
			proxy.delay(Duration.ZERO);
			long start = System.nanoTime();
			client.setData().forPath("/slow", new byte[] { 9 });
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("a round trip once the delay is lifted")
				.isLessThan(Duration.ofMillis(400));
			assertThat(client.getData().forPath("/slow")).containsExactly(9);
			assertThat(states).as("connection changes").isEmpty();
		}
	}

	private static String connectString() {
		return InetAddress.getLoopbackAddress().getHostAddress() + ":" + server.getPort();
	}

	private static CuratorFramework client(String connectString, BlockingQueue<ConnectionState> states)
			throws InterruptedException {
		return client(connectString, states, SESSION_TIMEOUT_MILLIS);
	}

	private static CuratorFramework client(String connectString, BlockingQueue<ConnectionState> states,
			int sessionTimeoutMillis) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(sessionTimeoutMillis)
			.connectionTimeoutMs(sessionTimeoutMillis)
			.retryPolicy(new RetryForever(100))
			.build();
		client.getConnectionStateListenable().addListener((source, state) -> states.add(state));
		client.start();
		assertThat(states.poll(10, TimeUnit.SECONDS)).isEqualTo(ConnectionState.CONNECTED);
		return client;
	}

}
