package dev.zklock.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.lock.LockCall;
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockSettings;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Three instances on one real server, each with its own session: one holds a key and keeps
 * working, one waits for it, and an operator's instance sees the true queue and force-releases the
 * holder. The holder is told at once, its call ends with {@link LockLostException}, the waiter gets
 * the key with a higher token, and a fenced resource rejects the old holder's late write.
 */
@EmbeddedZooKeeper
@Timeout(120)
class ForcedReleaseTests {

	private static final String BASE = "/zklock/locks";

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
	void aForcedReleaseEndsTheHoldersCallAndTheWaiterGetsTheKeyWithAHigherToken(ZooKeeperTestServer server)
			throws Exception {
		forceRelease(server, LockSettings.DEFAULTS);
	}

	@Test
	void aForcedReleaseOfANodePerCallEndsTheHoldersCallToo(ZooKeeperTestServer server) throws Exception {
		forceRelease(server, LockSettings.PER_CALL);
	}

	private void forceRelease(ZooKeeperTestServer server, LockSettings settings) throws Exception {
		List<String> lost = new CopyOnWriteArrayList<>();
		AtomicLong lostCount = new AtomicLong();
		ZkLockTemplate a = instance(server, "inventory@host-a:1", settings, new LockCallListener() {

			@Override
			public LockCall callStarted(String name, List<String> keys, LockMode mode) {
				return LockCall.NONE;
			}

			@Override
			public void lockLost(String key, LockMode mode) {
				lost.add(key);
			}

		}, lostCount);
		ZkLockTemplate b = instance(server, "inventory@host-b:2", settings, LockCallListener.NONE, new AtomicLong());
		CuratorFramework operator = client(server);
		ClusterView view = new ClusterView(operator, BASE, null);
		FencedResource resource = new FencedResource();

		CountDownLatch aHolds = new CountDownLatch(1);
		CountDownLatch aMayWrite = new CountDownLatch(1);
		AtomicBoolean validAfterRelease = new AtomicBoolean(true);
		AtomicLong aToken = new AtomicLong();
		Future<Object> aCall = this.threads.submit(() -> a.executeOrElse("stocktake", List.of("stock:1"),
				LockMode.EXCLUSIVE, null, (lock) -> {
					aToken.set(lock.fencingToken());
					assertThat(resource.write(aToken.get())).isTrue();
					aHolds.countDown();
					// Keeps working, unaware, until the test lets it write once more.
					aMayWrite.await(60, TimeUnit.SECONDS);
					validAfterRelease.set(lock.isValid());
					return resource.write(aToken.get());
				}, () -> null));
		assertThat(aHolds.await(30, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Long> bGranted = new CompletableFuture<>();
		Future<Boolean> bCall = this.threads.submit(() -> b.executeOrElse("reserve", List.of("stock:1"),
				LockMode.EXCLUSIVE, Duration.ofSeconds(60), (lock) -> {
					long token = lock.fencingToken();
					bGranted.complete(token);
					return resource.write(token);
				}, () -> false));

		// The view shows the true queue: A's node holds the key, B's waits behind it.
		await().atMost(Duration.ofSeconds(30)).until(() -> view.key("stock:1").nodes().size() == 2);
		KeyQueue queue = view.key("stock:1");
		assertThat(queue.nodes()).extracting(LockNodeView::owner)
			.containsExactly("inventory@host-a:1", "inventory@host-b:2");
		assertThat(queue.nodes()).extracting(LockNodeView::call).containsExactly("stocktake", "reserve");
		assertThat(queue.nodes()).extracting(LockNodeView::granted).containsExactly(true, false);
		assertThat(view.keys("stock:", null, 10).keys()).extracting(KeyQueue::key).containsExactly("stock:1");
		assertThat(view.keys("order:", null, 10).keys()).isEmpty();
		assertThat(bGranted).isNotDone();

		ForcedRelease released = new ClusterRelease(operator, BASE, "ops@host-c:3", Duration.ofSeconds(10))
			.release("stock:1", null, "inventory@host-a:1");
		assertThat(released.nodes()).containsExactly(queue.nodes().get(0).node());
		assertThat(released.owners()).singleElement().satisfies((owner) -> {
			assertThat(owner.participant()).isEqualTo("inventory@host-a:1");
			assertThat(owner.told()).as("the holder confirmed before its node was deleted").isTrue();
		});
		// Told before the release returned: the lost-lock listener, and the counter.
		assertThat(lost).containsExactly("stock:1");
		assertThat(lostCount).hasValue(1);

		long bToken = bGranted.get(30, TimeUnit.SECONDS);
		assertThat(bToken).isGreaterThan(aToken.get());
		assertThat(bCall.get(30, TimeUnit.SECONDS)).isTrue();
		aMayWrite.countDown();
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> aCall.get(30, TimeUnit.SECONDS))
			.withCauseInstanceOf(LockLostException.class)
			.withMessageContaining("stock:1");
		assertThat(validAfterRelease).isFalse();
		assertThat(resource.rejected).as("the old holder's late write").hasValue(1);
		assertThat(resource.highest).hasValue(bToken);
		// No notice left in A's control node, and the key free for A again.
		assertThat(operator.getChildren().forPath(BASE + "/#instances/inventory@host-a:1"))
			.allMatch((child) -> child.startsWith("session-"));
		assertThat(a.execute("stock:1", HeldLock::fencingToken)).isGreaterThan(bToken);
	}

	@Test
	void aReleaseOfAnInstanceWithoutAControlNodeDeletesItsNodeAndSaysItWasNotTold(ZooKeeperTestServer server)
			throws Exception {
		CuratorFramework holderClient = client(server);
		ZkLockTemplate holder = new ZkLockTemplate(holderClient, BASE, Duration.ofSeconds(10), false);
		this.closeables.add(0, holder);
		holder.setParticipantId("old@host:9");
		CountDownLatch holds = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(1);
		Future<Object> call = this.threads.submit(() -> holder.execute("job", (lock) -> {
			holds.countDown();
			return done.await(60, TimeUnit.SECONDS);
		}));
		assertThat(holds.await(30, TimeUnit.SECONDS)).isTrue();
		CuratorFramework operator = client(server);
		String node = new ClusterView(operator, BASE, null).key("job").nodes().get(0).node();
		ForcedRelease released = new ClusterRelease(operator, BASE, "ops@host:3", Duration.ofMillis(500))
			.release("job", node, null);
		assertThat(released.nodes()).containsExactly(node);
		assertThat(released.owners()).singleElement().extracting(ForcedRelease.Owner::told).isEqualTo(false);
		assertThat(new ClusterView(operator, BASE, null).key("job").nodes()).isEmpty();
		done.countDown();
		call.get(30, TimeUnit.SECONDS);
	}

	private ZkLockTemplate instance(ZooKeeperTestServer server, String participant, LockSettings settings,
			LockCallListener listener, AtomicLong lostCount) {
		CuratorFramework client = client(server);
		ZkLockTemplate template = new ZkLockTemplate(client, BASE, Duration.ofSeconds(10), false, listener, settings);
		template.setParticipantId(participant);
		InstanceControl control = new InstanceControl(client, BASE, template, new ForcedReleaseListener() {

			@Override
			public void lost(int nodes) {
				lostCount.addAndGet(nodes);
			}

		});
		control.start();
		this.closeables.add(0, template);
		this.closeables.add(0, control);
		await().atMost(Duration.ofSeconds(30)).until(() -> client.checkExists()
			.forPath(BASE + "/#instances/" + participant + "/session-" + Long.toHexString(template.sessionId())) != null);
		return template;
	}

	private CuratorFramework client(ZooKeeperTestServer server) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.sessionTimeoutMs(10_000)
			.retryPolicy(new ExponentialBackoffRetry(50, 5, 1000))
			.build();
		client.start();
		this.closeables.add(client);
		return client;
	}

	/**
	 * A resource that rejects a write whose token is lower than one it has seen.
	 */
	static final class FencedResource {

		final AtomicLong highest = new AtomicLong();

		final AtomicLong rejected = new AtomicLong();

		synchronized boolean write(long token) {
			if (token < this.highest.get()) {
				this.rejected.incrementAndGet();
				return false;
			}
			this.highest.set(token);
			return true;
		}

	}

}
