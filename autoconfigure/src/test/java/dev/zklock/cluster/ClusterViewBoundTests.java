package dev.zklock.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockSettings;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The view of more keys than the serving instance's client can take in one reply: that client
 * takes replies of at most {@value #REPLY_LIMIT} bytes, less than the names of
 * {@value #KEYS} keys, so one listing of the base path on its session would drop its
 * connection. The instance holds a lock throughout and must never see its connection suspended:
 * the view reads that list on listing sessions of its own, or refuses it when it has none.
 */
@EmbeddedZooKeeper
@Timeout(120)
class ClusterViewBoundTests {

	private static final int REPLY_LIMIT = 64 * 1024;

	private static final int KEYS = 3000;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void tearDown() throws Exception {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Test
	void listsMoreKeysThanTheClientTakesInOneReplyPageByPageWhileItsLockStaysValid(ZooKeeperTestServer server)
			throws Exception {
		String base = "/bound-tests/" + System.nanoTime() + "/locks";
		ManyKeys.create(client(server, ZKClientConfig.CLIENT_MAX_PACKET_LENGTH_DEFAULT, true), base, KEYS);
		CuratorFramework application = client(server, REPLY_LIMIT, true);
		List<ConnectionState> states = new CopyOnWriteArrayList<>();
		application.getConnectionStateListenable().addListener((client, state) -> states.add(state));
		Holder holder = hold(application, base);

		AtomicInteger listingSessions = new AtomicInteger();
		ClusterView view = new ClusterView(application, base, null, (replyLimit) -> {
			listingSessions.incrementAndGet();
			return client(server, replyLimit, false);
		});
		List<String> seen = new ArrayList<>();
		String after = null;
		boolean more = true;
		while (more) {
			ClusterView.Page page = view.keys(null, after, 500);
			page.keys().forEach((queue) -> seen.add(queue.key()));
			assertThat(page.keys()).allSatisfy((queue) -> assertThat(queue.nodes()).singleElement()
				.satisfies((node) -> assertThat(node.granted()).isTrue()));
			more = page.more();
			after = page.next();
		}
		assertThat(seen).hasSize(KEYS + 1).startsWith("held").contains(ManyKeys.key(0), ManyKeys.key(KEYS - 1));
		assertThat(listingSessions).hasValue(KEYS / 500 + 1);
		assertThat(view.key(ManyKeys.key(7)).nodes()).hasSize(1);
		assertThat(states).doesNotContain(ConnectionState.SUSPENDED, ConnectionState.LOST);
		assertThat(holder.stillValid()).isTrue();
	}

	@Test
	void refusesAListingTooLongForTheClientWhenItHasNoListingSessions(ZooKeeperTestServer server) throws Exception {
		String base = "/bound-tests/" + System.nanoTime() + "/locks";
		ManyKeys.create(client(server, ZKClientConfig.CLIENT_MAX_PACKET_LENGTH_DEFAULT, true), base, KEYS);
		CuratorFramework application = client(server, REPLY_LIMIT, true);
		List<ConnectionState> states = new CopyOnWriteArrayList<>();
		application.getConnectionStateListenable().addListener((client, state) -> states.add(state));
		Holder holder = hold(application, base);

		ClusterView view = new ClusterView(application, base, null);
		assertThatExceptionOfType(TooManyChildrenException.class).isThrownBy(() -> view.keys(null, null, 10))
			.withMessageContaining(base + " has " + (KEYS + 1) + " children")
			.withMessageContaining("jute.maxbuffer " + REPLY_LIMIT);
		assertThat(view.key(ManyKeys.key(KEYS - 1)).nodes()).singleElement()
			.satisfies((node) -> assertThat(node.mode()).isEqualTo(LockMode.EXCLUSIVE));
		assertThat(states).doesNotContain(ConnectionState.SUSPENDED, ConnectionState.LOST);
		assertThat(holder.stillValid()).isTrue();
	}

	private Holder hold(CuratorFramework client, String base) throws InterruptedException {
		ZkLockTemplate template = new ZkLockTemplate(client, base, Duration.ofSeconds(10), false,
				LockCallListener.NONE, LockSettings.DEFAULTS);
		this.closeables.add(0, template);
		CountDownLatch holds = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<Boolean> call = this.threads.submit(() -> template.executeOrElse("hold", List.of("held"),
				LockMode.EXCLUSIVE, null, (lock) -> {
					holds.countDown();
					release.await(60, TimeUnit.SECONDS);
					return lock.isValid();
				}, () -> false));
		assertThat(holds.await(30, TimeUnit.SECONDS)).isTrue();
		return new Holder(release, call);
	}

	private CuratorFramework client(ZooKeeperTestServer server, int replyLimit, boolean started) {
		ZKClientConfig config = new ZKClientConfig();
		config.setProperty(ZKConfig.JUTE_MAXBUFFER, String.valueOf(replyLimit));
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.sessionTimeoutMs(10_000)
			.zkClientConfig(config)
			.retryPolicy(started ? new ExponentialBackoffRetry(50, 3, 500) : new RetryNTimes(0, 0))
			.build();
		if (started) {
			client.start();
			this.closeables.add(client);
		}
		return client;
	}

	private record Holder(CountDownLatch release, Future<Boolean> call) {

		boolean stillValid() throws Exception {
			this.release.countDown();
			return this.call.get(30, TimeUnit.SECONDS);
		}

	}

}
