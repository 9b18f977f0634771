package dev.zklock.lock;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call that will not wait ("skip if another instance holds it", the usual scheduled-job case)
 * costs one read, and no write, when the lock is held.
 */
@EmbeddedZooKeeper
@Timeout(60)
class NoWaitTests {

	private static final Pattern ZXID = Pattern.compile("Zxid: 0x([0-9a-f]+)");

	@Test
	void aHeldLockIsSkippedWithoutAWrite(ZooKeeperTestServer server) throws Exception {
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try (LockTestSupport support = new LockTestSupport(server)) {
			ZkLockTemplate holder = support.template();
			ZkLockTemplate other = support.template();
			CountDownLatch held = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			Future<?> holding = executor.submit(() -> holder.execute("job", LockMode.SHARED, null, (lock) -> {
				held.countDown();
				return release.await(30, TimeUnit.SECONDS);
			}));
			assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();
			long before = zxid(server);
			for (int i = 0; i < 5; i++) {
				assertThat(other.tryExecute("job", LockMode.EXCLUSIVE, Duration.ZERO, (lock) -> "ran")).isEmpty();
			}
			assertThat(zxid(server)).as("last zxid: no write for a skipped call").isEqualTo(before);
			// Shared beside shared is not excluded: that one creates its node and runs.
			assertThat(other.tryExecute("job", LockMode.SHARED, Duration.ZERO, (lock) -> "ran")).contains("ran");
			release.countDown();
			holding.get(20, TimeUnit.SECONDS);
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static long zxid(ZooKeeperTestServer server) throws Exception {
		Matcher matcher = ZXID.matcher(HerdFreeTests.fourLetterWord(server, "srvr"));
		assertThat(matcher.find()).isTrue();
		return Long.parseLong(matcher.group(1), 16);
	}

}
