package dev.zklock.lock;

import java.time.Duration;
import java.util.List;

import org.apache.curator.utils.PathUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

@EmbeddedZooKeeper
class LockKeysTests {

	private static final String LONG_KEY = "k".repeat(400) + "/é/🔒/" + "x".repeat(594);

	@ParameterizedTest
	@ValueSource(strings = { "stock:42", "a/b/c", "/", ".", "..", "...", "zookeeper", "with space", "100%",
			"tab\there", "nul\u0000byte", "del\u007f", "ünïcödé", "emoji 🔒", "\uFFFF", "%41", "order:1,2;3" })
	void encodesAnyKeyReversiblyIntoOneValidNodeName(String key) {
		String name = LockKeys.encode(key);
		assertThat(name).doesNotContain("/").isNotIn(".", "..");
		assertThatNoException().isThrownBy(() -> PathUtils.validatePath("/" + name));
		assertThat(LockKeys.decode(name)).isEqualTo(key);
	}

	@Test
	void distinctKeysGetDistinctNames() {
		assertThat(LockKeys.encode("a/b")).isNotEqualTo(LockKeys.encode("a%2Fb"));
		assertThat(LockKeys.encode(".")).isNotEqualTo(LockKeys.encode("%2E"));
	}

	@Test
	void ordersKeysOneWayWithoutDuplicates() {
		assertThat(LockKeys.ordered(List.of("b", "a", "c", "a"))).containsExactly("a", "b", "c");
		assertThatIllegalArgumentException().isThrownBy(() -> LockKeys.ordered(List.of()));
		assertThatIllegalArgumentException().isThrownBy(() -> LockKeys.ordered(List.of("a", "")));
		assertThat(LockKeys.ordered(List.of("a"))).containsExactly("a");
		assertThatIllegalArgumentException().isThrownBy(() -> LockKeys.ordered(List.of("")));
		assertThatIllegalArgumentException().isThrownBy(() -> LockKeys.ordered(java.util.Collections.singleton(null)));
		assertThatIllegalArgumentException().isThrownBy(() -> LockKeys.encode(""));
	}

	@Test
	void awkwardAndLongKeysLockOnARealServer(ZooKeeperTestServer server) throws Exception {
		assertThat(LONG_KEY).hasSize(1000);
		try (LockTestSupport support = new LockTestSupport(server)) {
			ZkLockTemplate template = support.template();
			for (String key : List.of(LONG_KEY, "/", ".", "..", "a/../b", "nul\u0000byte", "🔒")) {
				assertThat(template.execute(key, LockMode.EXCLUSIVE, Duration.ofSeconds(10), HeldLock::key))
					.isEqualTo(key);
			}
		}
	}

}
