package dev.zklock.cluster;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.JavaProcess;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A forced release of a holder in another process that cannot answer: paused (SIGSTOP) for less
 * than its session, paused past it, or killed. Nothing is deleted while the owner may still be
 * working; the waiter gets the key once the owner has lost it (it read the notice on waking) or
 * once its session ended, never before; the holder's call does not end normally.
 */
@EmbeddedZooKeeper
@Timeout(180)
class ForcedReleaseProcessTests {

	private static final String BASE = "/zklock/locks";

	private static final Pattern HOLDING = Pattern.compile("HOLDING (\\d+)");

	private static final Pattern LOST = Pattern.compile("LOST (\\d+)");

	@Test
	void aHolderPausedForLessThanItsSessionKeepsItsNodeUntilItWakesAndReadsTheNotice(ZooKeeperTestServer server)
			throws Exception {
		releaseAPausedHolder(server, Duration.ofSeconds(4));
	}

	@Test
	void aHolderPausedPastItsSessionLosesItsNodeWithItsSession(ZooKeeperTestServer server) throws Exception {
		releaseAPausedHolder(server, null);
	}

	private void releaseAPausedHolder(ZooKeeperTestServer server, Duration pause) throws Exception {
		try (CuratorFramework operator = client(server);
				CuratorFramework waiterClient = client(server);
				ZkLockTemplate waiter = new ZkLockTemplate(waiterClient, BASE, Duration.ofSeconds(60), false);
				JavaProcess holder = JavaProcess.builder(ReleasedHolderMain.class)
					.args(server.getConnectString(), "stock:1", "holder@process:1", "8000", "25000")
					.name("released-holder")
					.start()) {
			holder.awaitOutput("HOLDING \\d+", Duration.ofSeconds(60));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> new ClusterView(operator, BASE, null).key("stock:1").nodes().size() == 1);
			holder.pause();
			CompletableFuture<long[]> granted = CompletableFuture.supplyAsync(() -> waiter.execute("stock:1",
					LockMode.EXCLUSIVE, Duration.ofSeconds(90),
					(lock) -> new long[] { System.currentTimeMillis(), lock.fencingToken() }),
					(task) -> new Thread(task, "waiter").start());
			try {
				ForcedRelease released = new ClusterRelease(operator, BASE, "ops@host:3", Duration.ofSeconds(1))
					.release("stock:1", null, "holder@process:1");
				assertThat(released.owners()).singleElement().satisfies((owner) -> {
					assertThat(owner.outcome()).isEqualTo(ForcedRelease.Outcome.NOT_CONFIRMED);
					assertThat(owner.nodes()).isEmpty();
				});
				if (pause != null) {
					Thread.sleep(pause.toMillis() - 1000);
					assertThat(granted).as("the waiter waits while the paused owner keeps its node").isNotDone();
				}
				else {
					// Its session ends on the server, and its node with it.
					granted.get(60, TimeUnit.SECONDS);
				}
			}
			finally {
				holder.resume();
			}
			long[] grant = granted.get(60, TimeUnit.SECONDS);
			holder.awaitOutput("RESULT .*", Duration.ofSeconds(60));
			String output = holder.outputText();
			assertThat(output).contains("RESULT lost").doesNotContain("RESULT ok");
			Matcher holding = HOLDING.matcher(output);
			assertThat(holding.find()).isTrue();
			assertThat(grant[1]).isGreaterThan(Long.parseLong(holding.group(1)));
			if (pause != null) {
				Matcher lost = LOST.matcher(output);
				assertThat(lost.find()).as("the holder was told").isTrue();
				assertThat(grant[0]).as("the waiter was granted after the holder lost the key")
					.isGreaterThanOrEqualTo(Long.parseLong(lost.group(1)));
			}
			assertNoNoticeLeft(operator);
		}
	}

	@Test
	void aKilledHoldersNodeGoesWithItsSessionAndTheNoticeWithIt(ZooKeeperTestServer server) throws Exception {
		try (CuratorFramework operator = client(server);
				CuratorFramework waiterClient = client(server);
				ZkLockTemplate waiter = new ZkLockTemplate(waiterClient, BASE, Duration.ofSeconds(60), false);
				JavaProcess holder = JavaProcess.builder(ReleasedHolderMain.class)
					.args(server.getConnectString(), "stock:1", "holder@process:1", "6000", "60000")
					.name("killed-holder")
					.start()) {
			holder.awaitOutput("HOLDING \\d+", Duration.ofSeconds(60));
			long token = Long.parseLong(holder.outputText().replaceAll("(?s).*HOLDING (\\d+).*", "$1"));
			holder.kill();
			ForcedRelease released = new ClusterRelease(operator, BASE, "ops@host:3", Duration.ofSeconds(1))
				.release("stock:1", null, "holder@process:1");
			assertThat(released.owners()).singleElement()
				.extracting(ForcedRelease.Owner::outcome)
				.isEqualTo(ForcedRelease.Outcome.NOT_CONFIRMED);
			long next = waiter.execute("stock:1", LockMode.EXCLUSIVE, Duration.ofSeconds(30), HeldLock::fencingToken);
			assertThat(next).isGreaterThan(token);
			assertNoNoticeLeft(operator);
		}
	}

	private static void assertNoNoticeLeft(CuratorFramework operator) {
		String control = ReleaseNotice.controlPath(BASE, "holder@process:1");
		await().atMost(Duration.ofSeconds(30)).until(() -> operator.checkExists().forPath(control) == null
				|| operator.getChildren().forPath(control).stream().noneMatch((child) -> child.startsWith("release-")));
	}

	private static CuratorFramework client(ZooKeeperTestServer server) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.sessionTimeoutMs(10_000)
			.retryPolicy(new ExponentialBackoffRetry(50, 5, 1000))
			.build();
		client.start();
		return client;
	}

}
