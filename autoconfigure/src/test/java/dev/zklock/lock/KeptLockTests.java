package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kept locks: an instance keeps a key's node after its last call, reuses it without ZooKeeper,
 * and gives it up when another instance asks, when its idle time ends, or with its session.
 */
@EmbeddedZooKeeper
@Timeout(120)
class KeptLockTests {

	private static final LockSettings KEEP = new LockSettings(true, 32, Duration.ofMillis(100), Duration.ofSeconds(30),
			3);

	private LockTestSupport support;

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.support = new LockTestSupport(server);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.support.close();
	}

	@Test
	void aKeptLockIsReusedWithoutZooKeeperWrites() throws Exception {
		CuratorFramework observer = this.support.client();
		ZkLockTemplate instance = instance(KEEP);
		instance.execute("again", (lock) -> null);
		assertThat(instance.keptLocks()).extracting(KeptLockInfo::key).containsExactly("again");
		// The writes under the key's node only: on a shared server, other tests' sessions end and
		// the container reaper deletes their keys' nodes at any time, each a write of the server's.
		String key = LockNodes.path(LockTestSupport.BASE, LockKeys.encode("again"));
		long before = LockTestSupport.lastWriteUnder(observer, key);
		for (int i = 0; i < 100; i++) {
			instance.execute("again", (lock) -> null);
		}
		assertThat(LockTestSupport.lastWriteUnder(observer, key)).as("last write under %s after 100 calls", key)
			.isEqualTo(before);
		assertThat(instance.lockCounts().reuses()).isEqualTo(100);
	}

	@Test
	void aKeptLockIsReleasedAsSoonAsAnotherInstanceAsks() throws Exception {
		ZkLockTemplate keeper = instance(KEEP);
		ZkLockTemplate other = instance(KEEP);
		long first = keeper.execute("asked", HeldLock::fencingToken);
		long started = System.nanoTime();
		long second = other.execute("asked", LockMode.EXCLUSIVE, Duration.ofSeconds(20), HeldLock::fencingToken);
		Duration waited = Duration.ofNanos(System.nanoTime() - started);
		// Far less than the 30 s idle time: the keeper gave the key up because it was asked.
		assertThat(waited).isLessThan(Duration.ofSeconds(5));
		assertThat(second).isGreaterThan(first);
		assertThat(keeper.lockCounts().releasesOnRequest()).isEqualTo(1);
		assertThat(keeper.keptLocks()).isEmpty();
	}

	@Test
	void aKeptLockIsReleasedWhenItsIdleTimeEnds() throws Exception {
		CuratorFramework observer = this.support.client();
		ZkLockTemplate instance = instance(new LockSettings(true, 32, Duration.ofMillis(100), Duration.ofMillis(300), 10));
		instance.execute("idle", (lock) -> null);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> instance.keptLocks().isEmpty() && LockTestSupport.lockNodes(observer, "idle").isEmpty());
	}

	@Test
	void tokensGrowAcrossReusesAndInstances() throws Exception {
		ZkLockTemplate keeper = instance(KEEP);
		ZkLockTemplate other = instance(KEEP);
		List<Long> tokens = new ArrayList<>();
		tokens.add(keeper.execute("fenced", HeldLock::fencingToken));
		tokens.add(keeper.execute("fenced", HeldLock::fencingToken));
		keeper.execute("fenced", (lock) -> null);
		tokens.add(keeper.execute("fenced", HeldLock::fencingToken));
		tokens.add(other.execute("fenced", LockMode.EXCLUSIVE, Duration.ofSeconds(20), HeldLock::fencingToken));
		tokens.add(other.execute("fenced", HeldLock::fencingToken));
		tokens.add(keeper.execute("fenced", LockMode.EXCLUSIVE, Duration.ofSeconds(20), HeldLock::fencingToken));
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void keptLocksAreBoundedInNumber() throws Exception {
		ZkLockTemplate instance = instance(KEEP);
		for (int i = 0; i < 10; i++) {
			instance.execute("key-" + i, (lock) -> null);
		}
		assertThat(instance.keptLocks()).hasSize(3);
	}

	@Test
	void keptLocksGoWithTheSession() throws Exception {
		CuratorFramework client = this.support.client(Duration.ofSeconds(4));
		ZkLockTemplate instance = this.support.template(client, KEEP);
		long first = instance.execute("session", HeldLock::fencingToken);
		assertThat(instance.keptLocks()).hasSize(1);
		this.support.expireSession(client);
		await().atMost(Duration.ofSeconds(20)).until(() -> instance.keptLocks().isEmpty());
		long again = instance.execute("session", LockMode.EXCLUSIVE, Duration.ofSeconds(20), HeldLock::fencingToken);
		assertThat(again).isGreaterThan(first);
		assertThat(instance.lockCounts().reuses()).isZero();
	}

	private ZkLockTemplate instance(LockSettings settings) {
		return this.support.template(this.support.client(), settings);
	}

}
