package dev.zklock.lock;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.JavaProcess;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An instance that keeps a lock, in its own process, killed or paused: the lock goes with its
 * session, exactly as a holder's does, and a paused keeper never uses its kept node again without
 * the server's word.
 */
@EmbeddedZooKeeper
@Timeout(120)
class KeptLockProcessTests {

	private static final int SESSION_MILLIS = 2000;

	private static final Pattern KEPT = Pattern.compile("KEPT (\\d+) 1");

	private static final Pattern AGAIN = Pattern.compile("AGAIN (\\d+) (\\d+) reuses=(\\d+)");

	@Test
	void aKilledKeepersLockIsFreeWithinTheSessionTimeout(ZooKeeperTestServer server) throws Exception {
		try (LockTestSupport support = new LockTestSupport(server);
				JavaProcess keeper = JavaProcess.builder(KeptLockMain.class)
					.args(server.getConnectString(), "killed", String.valueOf(SESSION_MILLIS), "600000")
					.name("killed-keeper")
					.start()) {
			keeper.awaitOutput("KEPT \\d+ 1", Duration.ofSeconds(60));
			ZkLockTemplate other = support.template();
			keeper.kill();
			long killed = System.nanoTime();
			other.execute("killed", LockMode.EXCLUSIVE, Duration.ofSeconds(30), (lock) -> null);
			Duration freeAfter = Duration.ofNanos(System.nanoTime() - killed);
			// The session timeout plus two ticks of the server, and a second for a busy machine.
			Duration bound = Duration.ofMillis(SESSION_MILLIS + 2L * server.getTickTime() + 1000);
			assertThat(freeAfter).isLessThan(bound);
		}
	}

	@Test
	void aPausedKeeperDoesNotUseItsKeptLockAfterItsSessionExpired(ZooKeeperTestServer server) throws Exception {
		try (LockTestSupport support = new LockTestSupport(server);
				JavaProcess keeper = JavaProcess.builder(KeptLockMain.class)
					.args(server.getConnectString(), "paused", String.valueOf(SESSION_MILLIS), "3000")
					.name("paused-keeper")
					.start()) {
			keeper.awaitOutput("KEPT \\d+ 1", Duration.ofSeconds(60));
			keeper.pause();
			assertThat(keeper.outputText()).as("the keeper was paused before its second call").doesNotContain("AGAIN");
			ZkLockTemplate other = support.template();
			long[] token = new long[1];
			long released;
			try {
				// The paused keeper's session expires on the server, and its kept lock with it.
				other.execute("paused", LockMode.EXCLUSIVE, Duration.ofSeconds(30), (HeldLock lock) -> {
					token[0] = lock.fencingToken();
					keeper.resume();
					// The keeper wakes up past its wait and calls again while we hold the key.
					Thread.sleep(1500);
					return null;
				});
				released = System.currentTimeMillis();
			}
			finally {
				keeper.resume();
			}
			keeper.awaitOutput("AGAIN .*", Duration.ofSeconds(60));
			Matcher again = AGAIN.matcher(keeper.outputText());
			assertThat(again.find()).isTrue();
			assertThat(Long.parseLong(again.group(1))).as("when the keeper's second call was granted")
				.isGreaterThanOrEqualTo(released);
			assertThat(Long.parseLong(again.group(2))).isGreaterThan(token[0]);
			assertThat(again.group(3)).as("reuses of the kept lock").isEqualTo("0");
			Matcher kept = KEPT.matcher(keeper.outputText());
			assertThat(kept.find()).isTrue();
			assertThat(token[0]).isGreaterThan(Long.parseLong(kept.group(1)));
		}
	}

}
