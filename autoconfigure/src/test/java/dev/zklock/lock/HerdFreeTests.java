package dev.zklock.lock;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiters watch only the node before their own, so a release wakes one waiter, not all of them
 * (the herd effect). Checked on the server's own table of watches.
 */
@EmbeddedZooKeeper
@Timeout(120)
class HerdFreeTests {

	private static final int WAITERS = 10;

	@Test
	void eachWaiterWatchesOneDistinctNode(ZooKeeperTestServer server) throws Exception {
		ExecutorService executor = Executors.newCachedThreadPool();
		try (LockTestSupport support = new LockTestSupport(server)) {
			CuratorFramework observer = support.client();
			ZkLockTemplate holder = support.template();
			CountDownLatch release = new CountDownLatch(1);
			CountDownLatch held = new CountDownLatch(1);
			Future<?> holding = executor.submit(() -> holder.execute("herd", (lock) -> {
				held.countDown();
				return release.await(60, TimeUnit.SECONDS);
			}));
			assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();
			List<Future<?>> waiters = new ArrayList<>();
			for (int i = 0; i < WAITERS; i++) {
				ZkLockTemplate template = support.template();
				waiters.add(executor.submit(() -> template.execute("herd", LockMode.EXCLUSIVE, Duration.ofSeconds(60),
						(lock) -> "done")));
			}
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				Map<String, Integer> watches = lockWatches(server);
				assertThat(watches).hasSize(WAITERS);
				assertThat(watches.values()).allMatch((watchers) -> watchers == 1);
			});
			release.countDown();
			holding.get(20, TimeUnit.SECONDS);
			for (Future<?> waiter : waiters) {
				assertThat(waiter.get(30, TimeUnit.SECONDS)).isEqualTo("done");
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> LockTestSupport.lockNodes(observer, "herd").isEmpty());
		}
		finally {
			executor.shutdownNow();
		}
	}

	/**
	 * Return the watched lock nodes of key 'herd', with how many sessions watch each, from the
	 * server's 'wchp' command.
	 */
	private static Map<String, Integer> lockWatches(ZooKeeperTestServer server) throws Exception {
		Map<String, Integer> watches = new LinkedHashMap<>();
		String current = null;
		for (String line : fourLetterWord(server, "wchp").split("\n")) {
			if (line.startsWith("/")) {
				current = line.startsWith(LockTestSupport.BASE + "/herd/") ? line : null;
				if (current != null) {
					watches.put(current, 0);
				}
			}
			else if (current != null && line.trim().startsWith("0x")) {
				watches.merge(current, 1, Integer::sum);
			}
		}
		return watches;
	}

	static String fourLetterWord(ZooKeeperTestServer server, String command) throws Exception {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getPort())) {
			socket.setSoTimeout(5000);
			OutputStream out = socket.getOutputStream();
			out.write(command.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream response = new ByteArrayOutputStream();
			in.transferTo(response);
			return response.toString(StandardCharsets.US_ASCII);
		}
	}

}
