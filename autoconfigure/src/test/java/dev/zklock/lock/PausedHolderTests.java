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
 * The one fault a holder cannot see while it happens: its whole process is paused (SIGSTOP, as a
 * long GC or a frozen VM would) past its session timeout while another process takes the lock.
 */
@EmbeddedZooKeeper
@Timeout(120)
class PausedHolderTests {

	private static final Pattern HOLDING = Pattern.compile("HOLDING (\\d+)");

	@Test
	void holderPausedPastItsSessionEndsWithLockLostExceptionNotOk(ZooKeeperTestServer server) throws Exception {
		try (LockTestSupport support = new LockTestSupport(server);
				JavaProcess holder = JavaProcess.builder(PausedHolderMain.class)
					.args(server.getConnectString(), "paused", "2000", "500")
					.name("paused-holder")
					.start()) {
			holder.awaitOutput("HOLDING \\d+", Duration.ofSeconds(60));
			holder.pause();
			ZkLockTemplate other = support.template();
			long token;
			try {
				// The paused holder's session expires on the server, and its lock with it.
				token = other.execute("paused", LockMode.EXCLUSIVE, Duration.ofSeconds(30), HeldLock::fencingToken);
			}
			finally {
				holder.resume();
			}
			holder.awaitOutput("RESULT .*", Duration.ofSeconds(30));
			String output = holder.outputText();
			assertThat(output).contains("RESULT lost: Lock on key 'paused' was lost").doesNotContain("RESULT ok");
			Matcher matcher = HOLDING.matcher(output);
			assertThat(matcher.find()).isTrue();
			assertThat(token).isGreaterThan(Long.parseLong(matcher.group(1)));
		}
	}

}
