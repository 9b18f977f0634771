package dev.zklock.leader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.lock.SequenceEndServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An election group whose node's children counter ({@code cversion}) reaches its end on a real
 * server: the participants that joined before the end lead in their order, one at a time; a
 * participant that would be named past the end joins once the group node is created again.
 */
@Timeout(120)
class ElectionSequenceEndTests {

	private static final String BASE = "/zklock/leader";

	private static final String GROUP = "sequence-end";

	private static final String GROUP_PATH = ZKPaths.makePath(BASE, GROUP);

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private SequenceEndServer server;

	@BeforeEach
	void startServer() throws Exception {
		this.server = SequenceEndServer.start();
	}

	@AfterEach
	void stopServer() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
		this.server.close();
	}

	@Test
	void participantsLeadInSequenceOrderAcrossTheEndOfTheGroupsCounter() throws Exception {
		client().create().creatingParentContainersIfNeeded().withMode(CreateMode.CONTAINER).forPath(GROUP_PATH);
		int start = Integer.MAX_VALUE - 2;
		this.server.setCversion(GROUP_PATH, start);
		LeaderElections first = join("first");
		await().atMost(Duration.ofSeconds(20)).until(() -> first.isLeader(GROUP));
		LeaderElections second = join("second");
		await().atMost(Duration.ofSeconds(20)).until(() -> first.participants(GROUP).size() == 2);
		assertThat(this.server.cversion(GROUP_PATH)).isEqualTo(Integer.MAX_VALUE);
		LeaderElections third = join("third");
		List<LeaderElections> all = List.of(first, second, third);
		// The third is named past the end: it does not join while the others are there.
		await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(first.participants(GROUP)).containsExactly("first", "second");
			assertThat(leaders(all)).containsExactly("first");
		});
		first.stop();
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(leaders(all)).containsExactly("second"));
		assertThat(third.isLeader(GROUP)).isFalse();
		second.stop();
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(leaders(all)).containsExactly("third"));
		// Created again, its counter started over (read in the data tree: a client's Stat shows
		// creates and deletes together).
		assertThat(this.server.cversion(GROUP_PATH)).isBetween(0, start - 1);
	}

	private static List<String> leaders(List<LeaderElections> elections) {
		return elections.stream().filter((election) -> election.isLeader(GROUP)).map(LeaderElections::participantId).toList();
	}

	private LeaderElections join(String participantId) {
		LeaderElections elections = new LeaderElections(client(), BASE, participantId, Duration.ofSeconds(10),
				(event) -> {
				}, new LeaderMethods(GROUP, (value) -> value), List.of(GROUP));
		this.closeables.add(0, elections::stop);
		elections.start();
		return elections;
	}

	private CuratorFramework client() {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(this.server.connectString())
			.sessionTimeoutMs(10_000)
			.connectionTimeoutMs(5000)
			.retryPolicy(new ExponentialBackoffRetry(50, 5, 1000))
			.build();
		client.start();
		this.closeables.add(0, client);
		return client;
	}

}
