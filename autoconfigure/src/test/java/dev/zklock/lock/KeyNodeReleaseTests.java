package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The release of a key's last lock node takes the key node with it, in one transaction, so that
 * the next use of the key is a first use again (the transaction that creates the key node with
 * the lock node, no read). A release that finds another instance's node under the key deletes
 * its own node alone, before its call returns, and the other instance's call gets the key.
 */
@EmbeddedZooKeeper
@Timeout(120)
class KeyNodeReleaseTests {

	private LockTestSupport support;

	private CuratorFramework observer;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.support = new LockTestSupport(server);
		this.observer = this.support.client();
	}

	@AfterEach
	void tearDown() throws Exception {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
		this.support.close();
	}

	@Test
	void anUncontendedCallLeavesNoKeyNodeAndTheNextCallCreatesItAgain() throws Exception {
		ZkLockTemplate instance = instance();
		String keyPath = keyPath("nightly");
		List<String> nodes = new ArrayList<>();
		List<Long> keyNodesCreated = new ArrayList<>();
		for (int call = 0; call < 3; call++) {
			instance.execute("nightly", (lock) -> {
				nodes.addAll(LockTestSupport.lockNodes(this.observer, "nightly"));
				Stat key = this.observer.checkExists().forPath(keyPath);
				keyNodesCreated.add(key.getCzxid());
				// The first token is the transaction's zxid: the key node's creation.
				assertThat(lock.fencingToken()).isEqualTo(FencingTokenSpace.token(key.getMzxid(), 0));
				return null;
			});
			assertThat(this.observer.checkExists().forPath(keyPath)).as("the key node after call %d", call).isNull();
		}
		// Each call's node was the first child of a key node created with it.
		assertThat(nodes).hasSize(3).allMatch((name) -> name.endsWith("0000000000"));
		assertThat(keyNodesCreated).doesNotHaveDuplicates().isSorted();
	}

	@Test
	void aSharedHolderReleasingBesideAnotherInstancesHolderDeletesItsNodeAlone() throws Exception {
		ZkLockTemplate first = instance();
		ZkLockTemplate second = instance();
		CountDownLatch firstReleases = new CountDownLatch(1);
		CountDownLatch secondReleases = new CountDownLatch(1);
		Future<?> firstCall = holdShared(first, "catalog", firstReleases);
		Future<?> secondCall = holdShared(second, "catalog", secondReleases);
		List<String> both = LockTestSupport.lockNodes(this.observer, "catalog");
		assertThat(both).hasSize(2);
		firstReleases.countDown();
		firstCall.get(20, TimeUnit.SECONDS);
		// The first call returned once its node was deleted; the second's holds the key node.
		List<String> left = LockTestSupport.lockNodes(this.observer, "catalog");
		assertThat(left).hasSize(1);
		assertThat(both).contains(left.get(0));
		secondReleases.countDown();
		secondCall.get(20, TimeUnit.SECONDS);
		assertThat(this.observer.checkExists().forPath(keyPath("catalog"))).isNull();
	}

	@Test
	void anotherInstanceWaitingUnseenGetsTheKeyWhenTheHolderReleases() throws Exception {
		ZkLockTemplate holder = instance();
		ZkLockTemplate waiter = instance();
		CountDownLatch holds = new CountDownLatch(1);
		CountDownLatch releases = new CountDownLatch(1);
		Future<?> holding = this.executor.submit(() -> holder.execute("stock", (lock) -> {
			holds.countDown();
			releases.await();
			return null;
		}));
		assertThat(holds.await(20, TimeUnit.SECONDS)).isTrue();
		Future<String> waiting = this.executor.submit(() -> waiter.execute("stock", LockMode.EXCLUSIVE,
				Duration.ofSeconds(30), (lock) -> "granted"));
		// The waiter's node is under the key: the holder, which watches nothing while its call
		// runs alone, does not know it.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> LockTestSupport.lockNodes(this.observer, "stock").size() == 2);
		releases.countDown();
		holding.get(20, TimeUnit.SECONDS);
		assertThat(waiting.get(20, TimeUnit.SECONDS)).isEqualTo("granted");
		assertThat(this.observer.checkExists().forPath(keyPath("stock"))).isNull();
	}

	@Test
	void aClientWithANamespaceReleasesTheKeyNodeOfItsNamespace() throws Exception {
		CuratorFramework tenant = this.support.client().usingNamespace("tenant");
		ZkLockTemplate first = this.support.template(tenant, LockSettings.DEFAULTS);
		ZkLockTemplate second = this.support.template(this.support.client().usingNamespace("tenant"),
				LockSettings.DEFAULTS);
		String keyPath = "/tenant" + keyPath("invoices");
		first.execute("invoices", (lock) -> {
			assertThat(this.observer.getChildren().forPath(keyPath)).hasSize(1);
			return null;
		});
		assertThat(this.observer.checkExists().forPath(keyPath)).as("the key node of the namespace").isNull();
		// Beside another instance's holder, the transaction fails and the node goes alone.
		CountDownLatch secondReleases = new CountDownLatch(1);
		Future<?> secondCall = holdShared(second, "invoices", secondReleases);
		List<String> nodes = new ArrayList<>();
		first.execute("invoices", LockMode.SHARED, null, (lock) -> {
			nodes.addAll(this.observer.getChildren().forPath(keyPath));
			return null;
		});
		assertThat(nodes).hasSize(2);
		List<String> left = this.observer.getChildren().forPath(keyPath);
		assertThat(left).hasSize(1);
		secondReleases.countDown();
		secondCall.get(20, TimeUnit.SECONDS);
		assertThat(this.observer.checkExists().forPath(keyPath)).isNull();
		assertThat(this.observer.checkExists().forPath(keyPath("invoices"))).as("outside the namespace").isNull();
	}

	@Test
	void theKeyAndLockNodesOfAFirstUseHaveTheAclOfTheClientsAclProvider() throws Exception {
		List<ACL> acl = List.of(new ACL(ZooDefs.Perms.ALL, ZooDefs.Ids.ANYONE_ID_UNSAFE),
				new ACL(ZooDefs.Perms.READ, new Id("ip", "127.0.0.2")));
		CuratorFramework client = this.support.client((builder) -> builder.aclProvider(new ACLProvider() {

			@Override
			public List<ACL> getDefaultAcl() {
				return acl;
			}

			@Override
			public List<ACL> getAclForPath(String path) {
				return acl;
			}

		}));
		ZkLockTemplate instance = this.support.template(client, LockSettings.DEFAULTS);
		String keyPath = keyPath("payroll");
		List<List<ACL>> seen = new ArrayList<>();
		instance.execute("payroll", (lock) -> {
			seen.add(this.observer.getACL().forPath(keyPath));
			seen.add(this.observer.getACL()
				.forPath(ZKPaths.makePath(keyPath, this.observer.getChildren().forPath(keyPath).get(0))));
			return null;
		});
		assertThat(seen).as("the key node's and the lock node's ACL").containsExactly(acl, acl);
	}

	/**
	 * Start a call that holds the key shared, on a thread of its own, until the latch opens;
	 * return once it holds the key.
	 */
	private Future<?> holdShared(ZkLockTemplate template, String key, CountDownLatch releases)
			throws InterruptedException {
		CountDownLatch holds = new CountDownLatch(1);
		Future<?> call = this.executor.submit(() -> template.execute(key, LockMode.SHARED, null, (lock) -> {
			holds.countDown();
			releases.await();
			return null;
		}));
		assertThat(holds.await(20, TimeUnit.SECONDS)).as("the shared holder of %s holds it", key).isTrue();
		return call;
	}

	private ZkLockTemplate instance() {
		return this.support.template(this.support.client(), LockSettings.DEFAULTS);
	}

	private static String keyPath(String key) {
		return ZKPaths.makePath(LockTestSupport.BASE, LockKeys.encode(key));
	}

}
