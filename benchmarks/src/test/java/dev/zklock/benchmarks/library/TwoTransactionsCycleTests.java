package dev.zklock.benchmarks.library;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import dev.zklock.LockMode;
import dev.zklock.lock.NodeOwner;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TwoTransactionsCycle} against a real server: the lock node of each cycle is
 * there while its work runs, named and filled as the library says, and gone with its key after.
 */
class TwoTransactionsCycleTests {

	@Test
	void theNamedShapeMakesTheLockNodeZkLockMakes() throws Exception {
		try (ZooKeeperTestServer server = ZooKeeperTestServer.start(2000);
				CuratorFramework client = CuratorClients.connect(server.getConnectString())) {
			Library library = Library.SHAPE_TWO_MULTIS_NAMED;
			ExclusiveLocks locks = library.exclusive(client);
			List<String> names = new ArrayList<>();
			List<NodeOwner> owners = new ArrayList<>();
			for (int cycle = 0; cycle < 2; cycle++) {
				locks.runExclusive("key", () -> {
					try {
						String keyPath = library.basePath() + "/key";
						for (String child : client.getChildren().forPath(keyPath)) {
							names.add(child);
							owners.add(NodeOwner.parse(client.getData().forPath(keyPath + "/" + child)));
						}
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				});
			}
			assertThat(names).hasSize(2)
				.allSatisfy((name) -> assertThat(name).matches("_c_[0-9a-f-]{36}-__WRIT__\\d{10}"));
			assertThat(names.get(0)).isNotEqualTo(names.get(1));
			assertThat(owners).allSatisfy((owner) -> {
				assertThat(owner.participant()).startsWith("application@");
				assertThat(owner.mode()).isEqualTo(LockMode.EXCLUSIVE);
				assertThat(owner.asked()).isNotNull();
			});
			assertThat(client.checkExists().forPath(library.basePath() + "/key")).as("the key node after the cycles")
				.isNull();
		}
	}

	@Test
	void theUnnamedShapeMakesAnEmptyLockNode() throws Exception {
		try (ZooKeeperTestServer server = ZooKeeperTestServer.start(2000);
				CuratorFramework client = CuratorClients.connect(server.getConnectString())) {
			Library library = Library.SHAPE_TWO_MULTIS_SYNC;
			List<String> names = new ArrayList<>();
			List<byte[]> data = new ArrayList<>();
			library.exclusive(client).runExclusive("key", () -> {
				try {
					String keyPath = library.basePath() + "/key";
					for (String child : client.getChildren().forPath(keyPath)) {
						names.add(child);
						data.add(client.getData().forPath(keyPath + "/" + child));
					}
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			assertThat(names).singleElement().asString().matches("lock-\\d{10}");
			assertThat(data).singleElement().satisfies((bytes) -> assertThat(bytes).isEmpty());
		}
	}

}
