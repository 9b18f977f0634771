package dev.zklock.test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * A ZooKeeper ensemble in an {@link IsolatedNetwork}: the servers' links to each other are cut
 * and healed, while this JVM still reaches every one of them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IsolatedNetworkTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Test
	void isolatedLeaderLosesItsQuorumAndTheOthersElectANewOneUntilHealed() throws Exception {
		assumeThat(IsolatedNetwork.unavailableReason()).as("network namespaces").isEmpty();
		String namespacePrefix;
		try (IsolatedNetwork network = IsolatedNetwork.create(3);
				ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.builder().tickTime(200).network(network).start()) {
			namespacePrefix = network.launcher(1).get(3).replace("-s1", "");
			assertThat(ensemble.connectString(1)).startsWith(network.address(1) + ":");
			int leader = ensemble.leader().orElseThrow();
			List<Integer> followers = IntStream.rangeClosed(1, 3).filter((id) -> id != leader).boxed().toList();
			try (CuratorFramework onLeader = client(ensemble.connectString(leader))) {
				onLeader.create().forPath("/before");

				network.partition(List.of(Set.of(leader), Set.copyOf(followers)));
				await().atMost(TIMEOUT).until(() -> !ensemble.mode(leader).equals("leader"));
				await().atMost(TIMEOUT).until(() -> ensemble.leader().isPresent()
						&& ensemble.leader().getAsInt() != leader);
				assertThat(ensemble.mode(leader)).as("the cut-off server serves no one").isEqualTo("down");
				await().atMost(TIMEOUT)
					.alias("the client of the cut-off server loses its connection")
					.until(() -> !onLeader.getZookeeperClient().isConnected());
				try (CuratorFramework onFollower = client(ensemble.connectString(followers.get(0)))) {
					onFollower.create().forPath("/during");
				}

				network.heal();
				ensemble.awaitServing(leader, TIMEOUT);
				await().atMost(TIMEOUT).until(() -> ensemble.mode(leader).equals("follower"));
				try (CuratorFramework rejoined = client(ensemble.connectString(leader))) {
					rejoined.sync().forPath("/");
					assertThat(rejoined.checkExists().forPath("/during")).isNotNull();
					assertThat(rejoined.checkExists().forPath("/before")).isNotNull();
				}
			}
		}
		assertThat(namespaces()).noneMatch((name) -> name.startsWith(namespacePrefix));
	}

	private static List<String> namespaces() throws Exception {
		Process process = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		process.waitFor(10, TimeUnit.SECONDS);
		return output.lines().map((line) -> line.split(" ")[0]).toList();
	}

	private static CuratorFramework client(String connectString) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(4000)
			.connectionTimeoutMs(4000)
			.retryPolicy(new RetryOneTime(200))
			.build();
		client.start();
		assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
		return client;
	}

}
