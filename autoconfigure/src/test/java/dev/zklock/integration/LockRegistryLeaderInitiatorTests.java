package dev.zklock.integration;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.zklock.ZkLockTemplate;

import org.springframework.integration.leader.AbstractCandidate;
import org.springframework.integration.leader.Context;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Integration's {@link LockRegistryLeaderInitiator} on {@link ZkLockRegistry}, two
 * application instances (clients, templates, registries) on one server: one leader at a time,
 * leadership handed on when the leader stops, yields, or loses its session.
 */
class LockRegistryLeaderInitiatorTests {

	private static TestingServer server;

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer();
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void oneLeaderAtATimeHandedOnWhenTheLeaderStopsOrYields() throws Exception {
		try (Instance a = new Instance("a"); Instance b = new Instance("b")) {
			a.initiator.start();
			awaitLeader(a);
			b.initiator.start();
			assertThat(b.candidate.isLeader()).isFalse();
			a.initiator.getContext().yield();
			awaitLeader(b);
			assertThat(a.candidate.isLeader()).isFalse();
			b.initiator.stop();
			awaitLeader(a);
			assertThat(b.candidate.events).endsWith("revoked");
			assertThat(a.candidate.events).containsExactly("granted", "revoked", "granted");
		}
	}

	@Test
	void aLeaderWhoseSessionIsLostIsRevokedAndTheOtherTakesOver() throws Exception {
		try (Instance a = new Instance("a"); Instance b = new Instance("b")) {
			a.initiator.start();
			awaitLeader(a);
			b.initiator.start();
			KillSession.kill(a.client.getZookeeperClient().getZooKeeper());
			Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> a.candidate.events.contains("revoked"));
			Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> a.candidate.isLeader() || b.candidate.isLeader());
			assertThat(a.candidate.isLeader() && b.candidate.isLeader()).isFalse();
		}
	}

	private static void awaitLeader(Instance instance) {
		Awaitility.await().atMost(Duration.ofSeconds(30)).until(instance.candidate::isLeader);
	}

	/**
	 * A candidate that records its grants and revocations.
	 */
	private static final class RecordingCandidate extends AbstractCandidate {

		private final List<String> events = new CopyOnWriteArrayList<>();

		private volatile boolean leader;

		RecordingCandidate(String id) {
			super(id, "leader");
		}

		@Override
		public void onGranted(Context ctx) {
			this.leader = true;
			this.events.add("granted");
		}

		@Override
		public void onRevoked(Context ctx) {
			this.leader = false;
			this.events.add("revoked");
		}

		boolean isLeader() {
			return this.leader;
		}

	}

	/**
	 * An application instance: its client, template, registry and initiator.
	 */
	private static final class Instance implements AutoCloseable {

		private final CuratorFramework client;

		private final ZkLockTemplate template;

		private final RecordingCandidate candidate;

		private final LockRegistryLeaderInitiator initiator;

		Instance(String id) {
			this.client = CuratorFrameworkFactory.newClient(server.getConnectString(), 4000, 4000, new RetryOneTime(100));
			this.client.start();
			this.template = new ZkLockTemplate(this.client, "/leaders", Duration.ofSeconds(10), false);
			this.candidate = new RecordingCandidate(id);
			this.initiator = new LockRegistryLeaderInitiator(new ZkLockRegistry(this.template), this.candidate);
			this.initiator.setHeartBeatMillis(100);
			this.initiator.setBusyWaitMillis(20);
		}

		@Override
		public void close() {
			this.initiator.destroy();
			this.template.close();
			this.client.close();
		}

	}

}
