package dev.zklock.lock;

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
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A key node whose children counter ({@code cversion}) reaches its end on a real server: the
 * server names every create from then on {@code 2147483647}, or a negative number when it
 * follows a create not yet applied. The key is taken in turn across the end, with exclusion,
 * in order, and the key node is replaced once the nodes named before the end are gone.
 */
@Timeout(180)
class SequenceEndTests {

	private static final String KEY = "counter-end";

	private static final String KEY_PATH = ZKPaths.makePath(LockTestSupport.BASE, LockKeys.encode(KEY));

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private SequenceEndServer server;

	private ExecutorService executor;

	@BeforeEach
	void startServer() throws Exception {
		this.server = SequenceEndServer.start();
		this.executor = Executors.newCachedThreadPool();
	}

	@AfterEach
	void stopServer() throws Exception {
		this.executor.shutdownNow();
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
		this.server.close();
	}

	@Test
	void instancesTakeTheKeyInTurnAcrossTheEndOfItsCounter() throws Exception {
		int start = keyNodeNearItsEnd(3);
		int instances = 3;
		int callersPerInstance = 2;
		int callsPerCaller = 15;
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		int[] counter = new int[1];
		// A call of another instance holds the key until the callers' nodes are named past the
		// end of its counter: without it, a release that finds no other node under the key
		// takes the key node away, and the counter could start over before it ends.
		CuratorFramework observer = client();
		ZkLockTemplate opener = template(LockTestSupport.defaultSettings());
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> opening = this.executor.submit(() -> opener.execute(KEY, (lock) -> {
			held.countDown();
			return release.await(60, TimeUnit.SECONDS);
		}));
		assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();
		List<Future<?>> callers = new ArrayList<>();
		for (int i = 0; i < instances; i++) {
			ZkLockTemplate template = template(LockTestSupport.defaultSettings());
			for (int c = 0; c < callersPerInstance; c++) {
				callers.add(this.executor.submit(() -> {
					for (int n = 0; n < callsPerCaller; n++) {
						template.execute(KEY, LockMode.EXCLUSIVE, Duration.ofSeconds(60), (lock) -> {
							if (inside.incrementAndGet() != 1) {
								overlaps.incrementAndGet();
							}
							int read = counter[0];
							Thread.sleep(1);
							counter[0] = read + 1;
							inside.decrementAndGet();
							return null;
						});
					}
					return null;
				}));
			}
		}
		// The end is reached once a node is named at it, and crossed once the next change of the
		// key's children (a create named past the end, or a delete) wraps the counter around.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> LockTestSupport.lockNodes(observer, KEY).size() >= 3
					&& counterAtOrPastItsEnd(this.server.cversion(KEY_PATH)));
		release.countDown();
		opening.get(30, TimeUnit.SECONDS);
		for (Future<?> caller : callers) {
			caller.get(150, TimeUnit.SECONDS);
		}
		assertThat(overlaps).hasValue(0);
		assertThat(counter[0]).isEqualTo(instances * callersPerInstance * callsPerCaller);
		assertKeyNodeReplaced(start);
	}

	private static boolean counterAtOrPastItsEnd(int cversion) {
		return cversion == Integer.MAX_VALUE || cversion < 0;
	}

	@Test
	void waitersNamedBeforeTheEndGoFirstThenTheKeyNodeIsReplaced() throws Exception {
		int start = keyNodeNearItsEnd(2);
		CuratorFramework observer = client();
		ZkLockTemplate first = template(LockSettings.PER_CALL);
		ZkLockTemplate second = template(LockSettings.PER_CALL);
		ZkLockTemplate third = template(LockSettings.PER_CALL);
		List<String> order = new CopyOnWriteArrayList<>();
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holding = this.executor.submit(() -> first.execute(KEY, (lock) -> {
			order.add("first");
			held.countDown();
			return release.await(60, TimeUnit.SECONDS);
		}));
		assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();
		Future<?> waiting = this.executor.submit(() -> second.execute(KEY, LockMode.EXCLUSIVE, Duration.ofSeconds(60),
				(lock) -> order.add("second")));
		// The second is named just before the end: both nodes are there, the counter at its end.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> LockTestSupport.lockNodes(observer, KEY).size() == 2
					&& this.server.cversion(KEY_PATH) == Integer.MAX_VALUE);
		Future<?> late = this.executor.submit(() -> third.execute(KEY, LockMode.EXCLUSIVE, Duration.ofSeconds(60),
				(lock) -> order.add("third")));
		release.countDown();
		holding.get(30, TimeUnit.SECONDS);
		waiting.get(30, TimeUnit.SECONDS);
		late.get(30, TimeUnit.SECONDS);
		assertThat(order).containsExactly("first", "second", "third");
		assertKeyNodeReplaced(start);
	}

	/**
	 * Create the key's node as the lock core does (a container), its counter the given number of
	 * creates before its end, and return that counter.
	 */
	private int keyNodeNearItsEnd(int createsLeft) throws Exception {
		client().create().creatingParentContainersIfNeeded().withMode(CreateMode.CONTAINER).forPath(KEY_PATH);
		int cversion = Integer.MAX_VALUE - createsLeft;
		this.server.setCversion(KEY_PATH, cversion);
		return cversion;
	}

	/**
	 * The key node that the calls end with was created again, its counter started over, or the
	 * last release took it away (this server runs no container manager: only the lock core
	 * deletes the key node). The counter is read in the data tree: a client's {@code Stat} shows
	 * creates and deletes together.
	 */
	private void assertKeyNodeReplaced(int start) {
		if (this.server.exists(KEY_PATH)) {
			assertThat(this.server.cversion(KEY_PATH)).isBetween(0, start - 1);
		}
	}

	private ZkLockTemplate template(LockSettings settings) {
		ZkLockTemplate template = new ZkLockTemplate(client(), LockTestSupport.BASE, Duration.ofSeconds(10), false,
				LockCallListener.NONE, settings);
		this.closeables.add(0, template);
		return template;
	}

	private CuratorFramework client() {
		// Connected before use: a request made before the client's first session goes on with a
		// new node once the session comes (it cannot tell which session its first create went out
		// with), which would take one more of the few sequence numbers this test leaves.
		CuratorFramework client = LockTestSupport.connectedClient(this.server.connectString(), Duration.ofSeconds(10),
				(builder) -> {
				});
		this.closeables.add(0, client);
		return client;
	}

}
