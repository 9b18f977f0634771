package dev.zklock.benchmarks.library;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.zklock.LockMode;
import dev.zklock.lock.NodeOwner;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TwoTransactionsCycle} against a real server: the lock node of each cycle is
 * there while its work runs, named and filled as the library says, and gone with its key after.
 */
class TwoTransactionsCycleTests {

	private static final String KEY = "key";

	@ParameterizedTest
	@CsvSource({ "SHAPE_TWO_MULTIS_NAMED, '_c_[0-9a-f-]{36}-__WRIT__\\d{10}', true",
			"SHAPE_TWO_MULTIS_SHORT_ID, '_c_[0-9a-f]{16}-__WRIT__\\d{10}', true",
			"SHAPE_TWO_MULTIS_NO_DATA, '_c_[0-9a-f-]{36}-__WRIT__\\d{10}', false",
			"SHAPE_TWO_MULTIS_SHORT_ID_NO_DATA, '_c_[0-9a-f]{16}-__WRIT__\\d{10}', false" })
	void theNamedShapesMakeZkLocksNodeOrLeaveOutOnlyThePartTheyName(Library library, String name, boolean ownerData)
			throws Exception {
		try (ZooKeeperTestServer server = ZooKeeperTestServer.start(2000);
				CuratorFramework client = CuratorClients.connect(server.getConnectString())) {
			ExclusiveLocks locks = library.exclusive(client);
			Map<String, byte[]> nodes = nodesWhileHeld(client, library, locks);
			nodes.putAll(nodesWhileHeld(client, library, locks));
			assertThat(nodes.keySet()).as("the lock nodes of two cycles")
				.hasSize(2)
				.allSatisfy((node) -> assertThat(node).matches(name));
			if (ownerData) {
				assertThat(nodes.values()).map(NodeOwner::parse).allSatisfy((owner) -> {
					assertThat(owner.participant()).startsWith("application@");
					assertThat(owner.mode()).isEqualTo(LockMode.EXCLUSIVE);
					assertThat(owner.asked()).isNotNull();
				});
			}
			else {
				assertThat(nodes.values()).allSatisfy((bytes) -> assertThat(bytes).isEmpty());
			}
			assertThat(client.checkExists().forPath(keyPath(library))).as("the key node after the cycles").isNull();
		}
	}

	@Test
	void theUnnamedShapeMakesAnEmptyLockNode() throws Exception {
		try (ZooKeeperTestServer server = ZooKeeperTestServer.start(2000);
				CuratorFramework client = CuratorClients.connect(server.getConnectString())) {
			Library library = Library.SHAPE_TWO_MULTIS_SYNC;
			Map<String, byte[]> nodes = nodesWhileHeld(client, library, library.exclusive(client));
			assertThat(nodes.keySet()).singleElement().asString().matches("lock-\\d{10}");
			assertThat(nodes.values()).singleElement().satisfies((bytes) -> assertThat(bytes).isEmpty());
		}
	}

	/**
	 * Run one cycle on the key and return the children of the key node, with their data, as they
	 * are while the cycle holds its node.
	 */
	private static Map<String, byte[]> nodesWhileHeld(CuratorFramework client, Library library, ExclusiveLocks locks)
			throws Exception {
		Map<String, byte[]> nodes = new LinkedHashMap<>();
		String keyPath = keyPath(library);
		locks.runExclusive(KEY, () -> {
			try {
				List<String> children = client.getChildren().forPath(keyPath);
				for (String child : children) {
					nodes.put(child, client.getData().forPath(keyPath + "/" + child));
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		return nodes;
	}

	private static String keyPath(Library library) {
		return library.basePath() + "/" + KEY;
	}

}
