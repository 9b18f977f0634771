package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import dev.zklock.zookeeper.CuratorPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fencing tokens made of a node's zxid and a local count, against a real server, with the counts
 * of a zxid cut to two so that the write for the node's next zxid (sent ahead, or awaited) comes
 * every other handoff, across several instances (sessions) and their threads.
 */
@EmbeddedZooKeeper
@Timeout(180)
class FencingTokenSchemeTests {

	private LockTestSupport support;

	private ScheduledExecutorService scheduler;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final List<LockEngine> engines = new ArrayList<>();

	@BeforeEach
	void setUp(ZooKeeperTestServer server) {
		this.support = new LockTestSupport(server);
		this.scheduler = LockScheduler.create();
	}

	@AfterEach
	void tearDown() throws Exception {
		this.engines.forEach(LockEngine::close);
		this.executor.shutdownNow();
		this.scheduler.shutdownNow();
		this.support.close();
	}

	@Test
	void tokensGrowAcrossHandoffsNewZxidsAndInstances() throws Exception {
		int instances = 3;
		int threads = 4;
		int calls = 60;
		List<Long> tokens = new ArrayList<>();
		List<Future<?>> workers = new ArrayList<>();
		for (int i = 0; i < instances; i++) {
			LockEngine engine = engine(this.support.client(), 2);
			for (int t = 0; t < threads; t++) {
				workers.add(this.executor.submit(() -> {
					for (int c = 0; c < calls; c++) {
						Acquisition acquisition = engine.acquire(List.of("fenced"), LockMode.EXCLUSIVE,
								Duration.ofSeconds(60));
						assertThat(acquisition).isNotNull();
						try {
							long token = acquisition.innermost().fencingToken();
							synchronized (tokens) {
								tokens.add(token);
							}
						}
						finally {
							engine.release(acquisition);
						}
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(150, TimeUnit.SECONDS);
		}
		// Recorded while each call held the key, so in grant order.
		assertThat(tokens).hasSize(instances * threads * calls).isSorted().doesNotHaveDuplicates();
		assertThat(tokens).allSatisfy((token) -> assertThat(FencingTokenSpace.count(token)).isBetween(0, 2));
		long handoffs = this.engines.stream().mapToLong((engine) -> engine.counts().handoffs()).sum();
		long zxids = tokens.stream().map(FencingTokenSpace::zxid).distinct().count();
		// Two tokens per zxid: the handed-off grants needed new zxids, from writes to their nodes.
		assertThat(handoffs).isGreaterThan(instances * threads * calls / 4);
		assertThat(zxids).isGreaterThanOrEqualTo(tokens.size() / 3);
	}

	private LockEngine engine(CuratorFramework client, int tokensPerWrite) {
		LockEngine engine = new LockEngine(new CuratorPort(client, this.scheduler), (since) -> false,
				LockTestSupport.BASE, false, LockCallListener.NONE, LockSettings.DEFAULTS, tokensPerWrite);
		this.engines.add(engine);
		return engine;
	}

}
