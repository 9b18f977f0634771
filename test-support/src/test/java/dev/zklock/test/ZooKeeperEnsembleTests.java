package dev.zklock.test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ZooKeeperEnsemble}, with real ZooKeeper server processes and Curator clients.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ZooKeeperEnsembleTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Test
	void clientKeepsWorkingWhenTheLeaderIsKilledAndTheLeaderRejoinsAsFollower() throws Exception {
		try (ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.builder().tickTime(200).start();
				CuratorFramework client = client(ensemble.connectString())) {
			assertThat(ensemble.size()).isEqualTo(3);
			client.create().forPath("/before", bytes("written before"));
			client.create().withMode(CreateMode.EPHEMERAL).forPath("/session");
			long session = client.getZookeeperClient().getZooKeeper().getSessionId();
			int leader = ensemble.leader().orElseThrow();
			long leaderPid = ensemble.pid(leader);

			ensemble.kill(leader);
			assertThat(ensemble.isRunning(leader)).isFalse();
			assertThat(ensemble.mode(leader)).isEqualTo("down");
			assertThat(Processes.isGone(leaderPid)).isTrue();
			ensemble.awaitQuorum(TIMEOUT);
			assertThat(ensemble.leader().orElseThrow()).isNotEqualTo(leader);

			assertThat(client.getData().forPath("/before")).isEqualTo(bytes("written before"));
			client.create().forPath("/after", bytes("written after"));
			assertThat(client.checkExists().forPath("/session")).as("ephemeral node of the session").isNotNull();
			assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(session);

			ensemble.restart(leader);
			ensemble.awaitServing(leader, TIMEOUT);
			assertThat(ensemble.mode(leader)).isEqualTo("follower");
			assertThat(ensemble.pid(leader)).isNotEqualTo(leaderPid);
			try (CuratorFramework rejoined = client(ensemble.connectString(leader))) {
				assertThat(rejoined.getData().forPath("/after")).isEqualTo(bytes("written after"));
			}
		}
	}

	@Test
	void clientKeepsWorkingWhenTheLeaderIsPausedAndTheLeaderRejoinsAsFollowerWhenResumed() throws Exception {
		try (ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.builder().tickTime(200).start();
				CuratorFramework client = client(ensemble.connectString())) {
			client.create().forPath("/before", bytes("written before"));
			int leader = ensemble.leader().orElseThrow();

			ensemble.pause(leader);
			assertThat(ensemble.isRunning(leader)).isTrue();
			assertThat(ensemble.mode(leader)).isEqualTo("down");
			ensemble.awaitQuorum(TIMEOUT);
			int newLeader = ensemble.leader().orElseThrow();
			assertThat(newLeader).isNotEqualTo(leader);
			assertThat(client.getData().forPath("/before")).isEqualTo(bytes("written before"));
			client.create().forPath("/after", bytes("written after"));

			ensemble.resume(leader);
			await().atMost(TIMEOUT).until(() -> ensemble.mode(leader).equals("follower"));
			assertThat(ensemble.leader()).hasValue(newLeader);
			try (CuratorFramework resumed = client(ensemble.connectString(leader))) {
				assertThat(resumed.getData().forPath("/after")).isEqualTo(bytes("written after"));
			}
		}
	}

	@Test
	void standaloneServerKeepsItsDataAcrossRestartsAndCloseLeavesNothingBehind() throws Exception {
		ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.builder().servers(1).start();
		try {
			assertThat(ensemble.size()).isEqualTo(1);
			assertThat(ensemble.mode(1)).isEqualTo("standalone");
			assertThat(ensemble.leader()).isEmpty();
			assertThat(ensemble.connectString()).isEqualTo("127.0.0.1:" + ensemble.clientPort(1))
				.isEqualTo(ensemble.connectString(1));
			try (CuratorFramework client = client(ensemble.connectString())) {
				client.create().forPath("/kept", bytes("kept"));
			}
			ensemble.stop(1);
			assertThat(ensemble.isRunning(1)).isFalse();
			ensemble.restart(1);
			ensemble.awaitQuorum(TIMEOUT);
			try (CuratorFramework client = client(ensemble.connectString())) {
				assertThat(client.getData().forPath("/kept")).isEqualTo(bytes("kept"));
			}
			assertThat(ensemble.log(1)).content().contains("ZooKeeperServerMain").doesNotContain(" DEBUG ");
			assertThatIllegalArgumentException().isThrownBy(() -> ensemble.kill(2))
				.withMessageContaining("ids go from 1 to 1");
		}
		finally {
			ensemble.close();
		}
		assertThat(Processes.isGone(ensemble.pid(1))).isTrue();
		assertThat(ensemble.dataRoot()).doesNotExist();
		ensemble.close();
	}

	@Test
	void givenDataRootIsKeptAfterClose(@TempDir Path dataRoot) {
		try (ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.builder().servers(1).dataRoot(dataRoot).start()) {
			assertThat(ensemble.dataRoot()).isEqualTo(dataRoot);
			assertThat(ensemble.log(1)).startsWith(dataRoot);
		}
		assertThat(dataRoot.resolve("server-1/data/myid")).hasContent("1");
		assertThat(dataRoot.resolve("server-1/zoo.cfg")).content()
			.contains("tickTime=500", "clientPortAddress=127.0.0.1", "minSessionTimeout=1000",
					"4lw.commands.whitelist=*");
	}

	private static CuratorFramework client(String connectString) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(6_000)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 10, 1_000))
			.build();
		client.start();
		if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
			client.close();
			throw new IllegalStateException("No connection to " + connectString);
		}
		return client;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
