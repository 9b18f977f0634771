package dev.zklock.lock;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fact the grant-time fencing token rests on, checked on the ZooKeeper version the starter
 * pins: a key node's {@code pzxid} moves past every change made while a child existed when that
 * child is deleted, whether by a delete or by the expiry of the child's session.
 */
@EmbeddedZooKeeper
@Timeout(60)
class PzxidTests {

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
	void pzxidMovesPastTheChildsLastWriteWhenItsSessionExpires() throws Exception {
		pzxidMovesPastTheChildsLastWrite(true);
	}

	@Test
	void pzxidMovesPastTheChildsLastWriteWhenItIsDeleted() throws Exception {
		pzxidMovesPastTheChildsLastWrite(false);
	}

	private void pzxidMovesPastTheChildsLastWrite(boolean expire) throws Exception {
		CuratorFramework holder = this.support.client(Duration.ofSeconds(4));
		CuratorFramework observer = this.support.client();
		String key = "/pzxid/" + (expire ? "expired" : "deleted");
		observer.create().creatingParentsIfNeeded().forPath(key);
		String child = holder.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(key + "/lock-");
		Stat written = holder.setData().forPath(child, new byte[] { 1 });
		long before = observer.checkExists().forPath(key).getPzxid();
		assertThat(written.getMzxid()).isGreaterThan(before);
		if (expire) {
			this.support.expireSession(holder);
		}
		else {
			holder.delete().forPath(child);
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> observer.checkExists().forPath(child) == null);
		long after = observer.checkExists().forPath(key).getPzxid();
		assertThat(after).isGreaterThan(written.getMzxid());
		observer.delete().deletingChildrenIfNeeded().forPath("/pzxid");
	}

}
