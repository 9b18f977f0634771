package dev.zklock.lock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every lock node names its owner in its data, as created, on first use of a key and after, with
 * a node per call and through the instance's node, and keeps naming it after a fencing token's
 * write.
 */
@EmbeddedZooKeeper
@Timeout(120)
class NodeOwnerTests {

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
	void theNodeOfAFirstUseNamesTheInstanceTheCallTheModeAndWhenItAsked() throws Exception {
		assertOwners(this.support.template(this.support.client(), LockSettings.DEFAULTS));
	}

	@Test
	void aNodeOfItsOwnForEachCallNamesItsOwnerToo() throws Exception {
		assertOwners(this.support.template(this.support.client(), LockSettings.PER_CALL));
	}

	private void assertOwners(ZkLockTemplate template) throws Exception {
		CuratorFramework reader = this.support.client();
		template.setParticipantId("inventory@host-1:4242");
		Instant before = Instant.now();
		for (String key : List.of("owner:first-use", "owner:first-use")) {
			NodeOwner seen = template.executeOrElse("reserve", List.of(key), LockMode.EXCLUSIVE, null, (lock) -> {
				NodeOwner owner = ownerOfTheOnlyNode(reader, key);
				lock.fencingToken();
				assertThat(ownerOfTheOnlyNode(reader, key)).as("after the token's write").isEqualTo(owner);
				return owner;
			}, () -> null);
			assertThat(seen.participant()).isEqualTo("inventory@host-1:4242");
			assertThat(seen.call()).isEqualTo("reserve");
			assertThat(seen.mode()).isEqualTo(LockMode.EXCLUSIVE);
			assertThat(seen.asked()).isBetween(before, Instant.now());
		}
		NodeOwner shared = template.executeOrElse(null, List.of("owner:shared"), LockMode.SHARED, null,
				(lock) -> ownerOfTheOnlyNode(reader, "owner:shared"), () -> null);
		assertThat(shared).isEqualTo(new NodeOwner("inventory@host-1:4242", null, LockMode.SHARED, shared.asked()));
		NodeOwner async = template.executeOrElseAsync("restock", List.of("owner:async"), LockMode.EXCLUSIVE, null,
				(lock) -> CompletableFuture
					.completedFuture(ownerOfTheOnlyNode(reader, "owner:async")),
				() -> CompletableFuture.completedFuture(null))
			.get();
		assertThat(async.call()).isEqualTo("restock");
	}

	@Test
	void theDataReadsAsTextWithTheParticipantIdOnTheFirstLine() {
		NodeOwner owner = new NodeOwner("inventory@host-1:4242", "StockService#reserve", LockMode.EXCLUSIVE,
				Instant.parse("2026-11-25T16:02:11.123Z"));
		assertThat(new String(owner.toBytes(), StandardCharsets.UTF_8)).isEqualTo("""
				inventory@host-1:4242
				call=StockService#reserve
				mode=EXCLUSIVE
				asked=2026-11-25T16:02:11.123Z""");
		assertThat(NodeOwner.parse(owner.toBytes())).isEqualTo(owner);
		assertThat(NodeOwner.parse("inventory@host-1:4242".getBytes(StandardCharsets.UTF_8)))
			.as("an election node").isEqualTo(new NodeOwner("inventory@host-1:4242", null, null, null));
		assertThat(NodeOwner.parse("a@b:1\nlater=x\nmode=SHARED".getBytes(StandardCharsets.UTF_8)))
			.as("a field of a later version").isEqualTo(new NodeOwner("a@b:1", null, LockMode.SHARED, null));
		assertThat(NodeOwner.parse(new byte[0])).as("a node of an earlier version").isNull();
	}

	private static NodeOwner ownerOfTheOnlyNode(CuratorFramework reader, String key) {
		try {
			String keyPath = ZKPaths.makePath(LockTestSupport.BASE, LockKeys.encode(key));
			List<String> nodes = reader.getChildren().forPath(keyPath);
			assertThat(nodes).hasSize(1);
			return Optional.ofNullable(NodeOwner.parse(reader.getData().forPath(ZKPaths.makePath(keyPath, nodes.get(0)))))
				.orElseThrow();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
