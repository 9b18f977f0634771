package dev.zklock.cluster;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.lock.LockKeys;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pages of keys on a real server, among keys whose queues are empty (containers not yet reaped)
 * and names that something else wrote under the base path: {@code limit} counts the keys shown,
 * {@code more} is true only when a key with lock nodes follows, and a foreign name is reported,
 * not fatal.
 */
@EmbeddedZooKeeper
@Timeout(60)
class ClusterViewPageTests {

	private CuratorFramework client;

	private String base;

	private String connectString;

	@BeforeEach
	void start(ZooKeeperTestServer server) throws Exception {
		this.connectString = server.getConnectString();
		this.client = CuratorFrameworkFactory.newClient(this.connectString, new ExponentialBackoffRetry(50, 3));
		this.client.start();
		this.base = "/page-tests/" + System.nanoTime() + "/locks";
		this.client.create().creatingParentsIfNeeded().forPath(this.base);
	}

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void emptyKeysAreNotShownNorCountedAndMoreSaysWhetherAKeyWithNodesFollows() throws Exception {
		key("a", true);
		key("b", false);
		key("c", true);
		key("d", false);
		key("e", false);
		ClusterView view = new ClusterView(this.client, this.base, null);

		ClusterView.Page first = view.keys(null, null, 1);
		assertThat(first.keys()).extracting(KeyQueue::key).containsExactly("a");
		assertThat(first.more()).isTrue();
		assertThat(first.next()).isEqualTo("a");
		ClusterView.Page second = view.keys(null, first.next(), 1);
		assertThat(second.keys()).extracting(KeyQueue::key).containsExactly("c");
		assertThat(second.more()).as("only empty keys follow").isFalse();
		assertThat(second.next()).isNull();
		ClusterView.Page all = view.keys(null, null, 2);
		assertThat(all.keys()).extracting(KeyQueue::key).containsExactly("a", "c");
		assertThat(all.more()).isFalse();
	}

	@Test
	void aPageLooksAtABoundedNumberOfKeysAndSaysWhereToGoOn() throws Exception {
		List<String> empty = new ArrayList<>();
		for (int i = 0; i < ClusterView.MAX_LOOKED_AT + 5; i++) {
			empty.add(String.format("empty-%05d", i));
		}
		for (String key : empty) {
			key(key, false);
		}
		key("full", true);
		// More names than the client takes on its own session: a listing session reads them.
		ClusterView view = new ClusterView(this.client, this.base, null,
				(replyLimit) -> CuratorFrameworkFactory.newClient(this.connectString, new RetryNTimes(0, 0)));

		ClusterView.Page first = view.keys(null, null, 10);
		assertThat(first.keys()).isEmpty();
		assertThat(first.more()).isTrue();
		assertThat(first.next()).isEqualTo(empty.get(ClusterView.MAX_LOOKED_AT - 1));
		ClusterView.Page second = view.keys(null, first.next(), 10);
		assertThat(second.keys()).extracting(KeyQueue::key).containsExactly("full");
		assertThat(second.more()).isFalse();
	}

	@Test
	void namesThatEncodeNoKeyAreSkippedAndReported() throws Exception {
		key("a", true);
		for (String foreign : List.of("%zz", "trailing%4", "%41")) {
			this.client.create().forPath(ZKPaths.makePath(this.base, foreign));
			this.client.create().forPath(ZKPaths.makePath(this.base, foreign, "_c_x-__WRIT__0000000000"));
		}
		this.client.create().forPath(ZKPaths.makePath(this.base, "#instances"));
		ClusterView view = new ClusterView(this.client, this.base, null);

		ClusterView.Page page = view.keys(null, null, 10);
		assertThat(page.keys()).extracting(KeyQueue::key).containsExactly("a");
		assertThat(page.skipped()).containsExactlyInAnyOrder("%zz", "trailing%4", "%41");
		assertThat(page.more()).isFalse();
	}

	@Test
	void keysOfAnyCharactersAreListedAndAddressed() throws Exception {
		List<String> keys = List.of("eu/stock#1", "100%", "..", "ключ");
		for (String key : keys) {
			key(key, true);
		}
		ClusterView view = new ClusterView(this.client, this.base, null);

		assertThat(view.keys(null, null, 10).keys()).extracting(KeyQueue::key)
			.containsExactlyElementsOf(keys.stream().sorted().toList());
		for (String key : keys) {
			assertThat(view.key(key).nodes()).hasSize(1);
		}
	}

	private void key(String key, boolean withNode) throws Exception {
		String keyPath = ZKPaths.makePath(this.base, LockKeys.encode(key));
		this.client.create().withMode(CreateMode.CONTAINER).forPath(keyPath);
		if (withNode) {
			this.client.create().forPath(ZKPaths.makePath(keyPath, "_c_x-__WRIT__0000000000"));
		}
	}

}
