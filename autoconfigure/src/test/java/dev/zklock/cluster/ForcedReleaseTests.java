package dev.zklock.cluster;

import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
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
import dev.zklock.test.ChaosProxy;
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
			assertThat(owner.outcome()).isEqualTo(ForcedRelease.Outcome.CONFIRMED);
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
		assertThat(released.owners()).singleElement().satisfies((owner) -> {
			assertThat(owner.told()).isFalse();
			assertThat(owner.outcome()).isEqualTo(ForcedRelease.Outcome.NOT_TOLD);
			assertThat(owner.nodes()).containsExactly(node);
		});
		assertThat(new ClusterView(operator, BASE, null).key("job").nodes()).isEmpty();
		done.countDown();
		call.get(30, TimeUnit.SECONDS);
	}

	@Test
	void anOwnerCutOffLongerThanTheWaitKeepsItsNodeUntilItReadsTheNoticeAndNeverHoldsBesideTheWaiter(
			ZooKeeperTestServer server) throws Exception {
		try (ChaosProxy proxy = ChaosProxy.start(server.getConnectString())) {
			ZkLockTemplate a = instance(client(proxy.connectString()), "inventory@host-a:1", LockSettings.DEFAULTS,
					LockCallListener.NONE, new AtomicLong());
			ZkLockTemplate b = instance(server, "inventory@host-b:2", LockSettings.DEFAULTS, LockCallListener.NONE,
					new AtomicLong());
			CuratorFramework operator = client(server);
			AtomicReference<HeldLock> aLock = new AtomicReference<>();
			CountDownLatch aHolds = new CountDownLatch(1);
			CountDownLatch aMayEnd = new CountDownLatch(1);
			Future<Object> aCall = this.threads.submit(() -> a.executeOrElse("stocktake", List.of("stock:1"),
					LockMode.EXCLUSIVE, null, (lock) -> {
						aLock.set(lock);
						aHolds.countDown();
						return aMayEnd.await(60, TimeUnit.SECONDS);
					}, () -> null));
			assertThat(aHolds.await(30, TimeUnit.SECONDS)).isTrue();
			AtomicBoolean aValidWhileBHeld = new AtomicBoolean();
			CompletableFuture<Long> bGranted = new CompletableFuture<>();
			Future<Boolean> bCall = this.threads.submit(() -> b.executeOrElse("reserve", List.of("stock:1"),
					LockMode.EXCLUSIVE, Duration.ofSeconds(60), (lock) -> {
						bGranted.complete(System.nanoTime());
						// A's own answer, without asking the server: what its calls and handoffs go by.
						aValidWhileBHeld.set(aLock.get().isValid());
						return true;
					}, () -> false));
			await().atMost(Duration.ofSeconds(30)).until(() -> new ClusterView(operator, BASE, null).key("stock:1")
				.nodes()
				.size() == 2);

			// A is cut off for longer than the release waits, but not long enough to suspend its
			// connection (two thirds of its 10-s session) nor to end its session.
			proxy.blackhole();
			ForcedRelease released = new ClusterRelease(operator, BASE, "ops@host-c:3", Duration.ofSeconds(1))
				.release("stock:1", null, "inventory@host-a:1");
			Thread.sleep(2000);
			boolean bGrantedWhileACutOff = bGranted.isDone();
			proxy.heal();

			// Back in touch, A reads the notice: its holder loses the node, A deletes it, B gets the key.
			bGranted.get(30, TimeUnit.SECONDS);
			assertThat(bCall.get(30, TimeUnit.SECONDS)).isTrue();
			assertThat(aValidWhileBHeld).as("A's grant valid while B held the key").isFalse();
			aMayEnd.countDown();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> aCall.get(30, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			assertThat(bGrantedWhileACutOff).as("the waiter waits while the cut-off owner keeps its node").isFalse();
			assertThat(released.owners()).singleElement().satisfies((owner) -> {
				assertThat(owner.outcome()).isEqualTo(ForcedRelease.Outcome.NOT_CONFIRMED);
				assertThat(owner.told()).isFalse();
				assertThat(owner.nodes()).as("nothing deleted while the owner may still grant it").isEmpty();
			});
			assertThat(released.nodes()).isEmpty();
			assertThat(released.complete()).isFalse();
			// The notice, applied late, is removed by the releasing instance.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> operator.getChildren()
					.forPath(BASE + "/#instances/inventory@host-a:1")
					.stream()
					.allMatch((child) -> child.startsWith("session-")));
		}
	}

	@Test
	void aReleaserWhoseSessionEndsDuringTheWaitReportsAFailureAndDeletesNothing(ZooKeeperTestServer server)
			throws Exception {
		try (ChaosProxy proxy = ChaosProxy.start(server.getConnectString())) {
			ZkLockTemplate a = instance(client(proxy.connectString()), "inventory@host-a:1", LockSettings.DEFAULTS,
					LockCallListener.NONE, new AtomicLong());
			CuratorFramework operator = client(server);
			CountDownLatch aHolds = new CountDownLatch(1);
			CountDownLatch aMayEnd = new CountDownLatch(1);
			AtomicReference<HeldLock> aLock = new AtomicReference<>();
			Future<Object> aCall = this.threads.submit(() -> a.execute("stock:1", (lock) -> {
				aLock.set(lock);
				aHolds.countDown();
				return aMayEnd.await(60, TimeUnit.SECONDS);
			}));
			assertThat(aHolds.await(30, TimeUnit.SECONDS)).isTrue();
			// A cannot answer; the releasing instance's session ends while it waits for the answer,
			// and its notice with it.
			proxy.blackhole();
			Future<ForcedRelease> releasing = this.threads.submit(() -> new ClusterRelease(operator, BASE,
					"ops@host-c:3", Duration.ofSeconds(10)).release("stock:1", null, "inventory@host-a:1"));
			String control = ReleaseNotice.controlPath(BASE, "inventory@host-a:1");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> operator.getChildren().forPath(control).stream().anyMatch((child) -> child.startsWith("release-")));
			expire(server, operator);
			ForcedRelease released = releasing.get(60, TimeUnit.SECONDS);
			assertThat(released.owners()).singleElement().satisfies((owner) -> {
				assertThat(owner.outcome()).isEqualTo(ForcedRelease.Outcome.FAILED);
				assertThat(owner.told()).isFalse();
				assertThat(owner.nodes()).isEmpty();
			});
			assertThat(new ClusterView(operator, BASE, null).key("stock:1").nodes()).as("the node is still there")
				.hasSize(1);
			proxy.heal();
			aMayEnd.countDown();
			assertThat(aCall.get(30, TimeUnit.SECONDS)).isEqualTo(true);
		}
	}

	/**
	 * End a client's session on the server, as its timeout would: attach to it and close it.
	 */
	private static void expire(ZooKeeperTestServer server, CuratorFramework client) throws Exception {
		ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper twin = new ZooKeeper(server.getConnectString(), 10_000, (event) -> {
			if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
				connected.countDown();
			}
		}, zk.getSessionId(), zk.getSessionPasswd());
		try {
			assertThat(connected.await(10, TimeUnit.SECONDS)).isTrue();
		}
		finally {
			twin.close();
		}
	}

	@Test
	void aReleasedWaitingNodeIsAskedForAgainAtOnceWithoutWaitingForTheNodeBeforeIt(ZooKeeperTestServer server)
			throws Exception {
		ZkLockTemplate a = instance(server, "inventory@host-a:1", LockSettings.DEFAULTS, LockCallListener.NONE,
				new AtomicLong());
		ZkLockTemplate b = instance(server, "inventory@host-b:2", LockSettings.DEFAULTS, LockCallListener.NONE,
				new AtomicLong());
		ZkLockTemplate c = instance(server, "inventory@host-c:3", LockSettings.DEFAULTS, LockCallListener.NONE,
				new AtomicLong());
		CuratorFramework operator = client(server);
		ClusterView view = new ClusterView(operator, BASE, null);
		CountDownLatch aHolds = new CountDownLatch(1);
		CountDownLatch aMayEnd = new CountDownLatch(1);
		List<String> order = new CopyOnWriteArrayList<>();
		Future<Object> aCall = this.threads.submit(() -> a.execute("stock:1", (lock) -> {
			aHolds.countDown();
			return aMayEnd.await(60, TimeUnit.SECONDS);
		}));
		assertThat(aHolds.await(30, TimeUnit.SECONDS)).isTrue();
		Future<Object> bCall = this.threads.submit(() -> b.executeOrElse("reserve", List.of("stock:1"),
				LockMode.EXCLUSIVE, Duration.ofSeconds(60), (lock) -> order.add("b"), () -> null));
		await().atMost(Duration.ofSeconds(30)).until(() -> view.key("stock:1").nodes().size() == 2);
		Future<Object> cCall = this.threads.submit(() -> c.executeOrElse("reserve", List.of("stock:1"),
				LockMode.EXCLUSIVE, Duration.ofSeconds(60), (lock) -> order.add("c"), () -> null));
		await().atMost(Duration.ofSeconds(30)).until(() -> view.key("stock:1").nodes().size() == 3);
		String bNode = view.key("stock:1").nodes().get(1).node();

		ForcedRelease released = new ClusterRelease(operator, BASE, "ops@host-d:4", Duration.ofSeconds(10))
			.release("stock:1", bNode, null);
		assertThat(released.owners()).singleElement()
			.extracting(ForcedRelease.Owner::outcome)
			.isEqualTo(ForcedRelease.Outcome.CONFIRMED);
		assertThat(released.nodes()).containsExactly(bNode);
		// B asks again at once, behind C, while A still holds the key.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> view.key("stock:1").nodes().stream().map(LockNodeView::owner).toList(),
					(owners) -> owners.equals(List.of("inventory@host-a:1", "inventory@host-c:3", "inventory@host-b:2")));
		assertThat(aCall).isNotDone();
		aMayEnd.countDown();
		aCall.get(30, TimeUnit.SECONDS);
		cCall.get(30, TimeUnit.SECONDS);
		bCall.get(30, TimeUnit.SECONDS);
		assertThat(order).containsExactly("c", "b");
	}

	@Test
	void aLostLockListenerThatThrowsDoesNotKeepTheOtherHoldsOrNodesFromBeingLost(ZooKeeperTestServer server)
			throws Exception {
		AtomicLong told = new AtomicLong();
		ZkLockTemplate a = instance(server, "inventory@host-a:1", LockSettings.DEFAULTS, new LockCallListener() {

			@Override
			public LockCall callStarted(String name, List<String> keys, LockMode mode) {
				return LockCall.NONE;
			}

			@Override
			public void lockLost(String key, LockMode mode) {
				told.incrementAndGet();
				throw new IllegalStateException("a listener that fails");
			}

		}, new AtomicLong());
		CuratorFramework operator = client(server);
		// Two readers on one node, and a holder of another key.
		CountDownLatch holding = new CountDownLatch(3);
		CountDownLatch mayEnd = new CountDownLatch(1);
		List<HeldLock> locks = new CopyOnWriteArrayList<>();
		List<Future<Object>> calls = new ArrayList<>();
		for (String[] call : new String[][] { { "stock:1", "SHARED" }, { "stock:1", "SHARED" }, { "stock:2", "EXCLUSIVE" } }) {
			calls.add(this.threads.submit(() -> a.executeOrElse("count", List.of(call[0]), LockMode.valueOf(call[1]),
					null, (lock) -> {
						locks.add(lock);
						holding.countDown();
						return mayEnd.await(60, TimeUnit.SECONDS);
					}, () -> null)));
		}
		assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
		ClusterView view = new ClusterView(operator, BASE, null);
		List<String> paths = List.of(BASE + "/stock:1/" + view.key("stock:1").nodes().get(0).node(),
				BASE + "/stock:2/" + view.key("stock:2").nodes().get(0).node());

		assertThat(a.loseReleased(paths, a.sessionId(), "released in a test")).isEqualTo(2);
		assertThat(told).as("every hold told, though the listener threw each time").hasValue(3);
		assertThat(locks).noneMatch(HeldLock::isValid);
		mayEnd.countDown();
		for (Future<Object> call : calls) {
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(30, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> view.key("stock:1").nodes().isEmpty()
				&& view.key("stock:2").nodes().isEmpty());
	}

	@Test
	void aNoticeTheOwnerCannotReadIsAnsweredAsRefusedAndNothingIsDeleted(ZooKeeperTestServer server) throws Exception {
		ZkLockTemplate a = instance(server, "inventory@host-a:1", LockSettings.DEFAULTS, LockCallListener.NONE,
				new AtomicLong());
		CuratorFramework operator = client(server);
		String notice = operator.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath(BASE + "/#instances/inventory@host-a:1/release-", "not a notice".getBytes(StandardCharsets.UTF_8));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> new String(operator.getData().forPath(notice), StandardCharsets.UTF_8).contains("refused="));
		boolean valid = a.execute("stock:1", HeldLock::isValid);
		assertThat(valid).isTrue();
	}

	@Test
	void anOwnerWhoseParticipantIdHasALineBreakIsToldAllTheSame(ZooKeeperTestServer server) throws Exception {
		ZkLockTemplate a = instance(server, "inventory\n@host-a:1", LockSettings.DEFAULTS, LockCallListener.NONE,
				new AtomicLong());
		CuratorFramework operator = client(server);
		CountDownLatch holds = new CountDownLatch(1);
		CountDownLatch mayEnd = new CountDownLatch(1);
		Future<Object> call = this.threads.submit(() -> a.execute("stock:1", (lock) -> {
			holds.countDown();
			return mayEnd.await(60, TimeUnit.SECONDS);
		}));
		assertThat(holds.await(30, TimeUnit.SECONDS)).isTrue();
		String owner = new ClusterView(operator, BASE, null).key("stock:1").nodes().get(0).owner();
		assertThat(owner).isEqualTo("inventory @host-a:1");
		ForcedRelease released = new ClusterRelease(operator, BASE, "ops@host-c:3", Duration.ofSeconds(10))
			.release("stock:1", null, owner);
		assertThat(released.owners()).singleElement()
			.extracting(ForcedRelease.Owner::outcome)
			.isEqualTo(ForcedRelease.Outcome.CONFIRMED);
		mayEnd.countDown();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(30, TimeUnit.SECONDS))
			.withCauseInstanceOf(LockLostException.class);
	}

	private ZkLockTemplate instance(ZooKeeperTestServer server, String participant, LockSettings settings,
			LockCallListener listener, AtomicLong lostCount) {
		return instance(client(server), participant, settings, listener, lostCount);
	}

	private ZkLockTemplate instance(CuratorFramework client, String participant, LockSettings settings,
			LockCallListener listener, AtomicLong lostCount) {
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
			.forPath(ReleaseNotice.controlPath(BASE, participant) + "/session-" + Long.toHexString(template.sessionId())) != null);
		return template;
	}

	private CuratorFramework client(ZooKeeperTestServer server) {
		return client(server.getConnectString());
	}

	private CuratorFramework client(String connectString) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
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
