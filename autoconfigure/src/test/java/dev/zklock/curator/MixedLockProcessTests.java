package dev.zklock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.test.JavaProcess;
import dev.zklock.test.ZooKeeperEnsemble;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Separate processes of zklock ({@code @ZkLocked} applications configured by properties) and of
 * raw Curator on one key of a real 3-server ensemble, incrementing one counter kept in ZooKeeper
 * ({@link MixedCounter}): Curator's {@code InterProcessMutex} beside zklock with
 * {@code zklock.lock.node-names=mutex}, and Curator's {@code InterProcessReadWriteLock} beside
 * zklock with its default names. During each run the process holding the key is killed with
 * {@code SIGKILL}, once on each side. No section overlaps another, no update is lost, and each
 * side does its share of the writes.
 */
@Timeout(300)
class MixedLockProcessTests {

	private static final int SESSION_MILLIS = 4000;

	/**
	 * How long the processes go on after the kills, before the test ends the run.
	 */
	private static final long AFTER_KILLS_MILLIS = 5000;

	private static ZooKeeperEnsemble ensemble;

	@BeforeAll
	static void startEnsemble() {
		ensemble = ZooKeeperEnsemble.builder().tickTime(200).start();
	}

	@AfterAll
	static void stopEnsemble() {
		if (ensemble != null) {
			ensemble.close();
		}
	}

	@Test
	void zklockWithMutexNamesAndCuratorsMutex() throws Exception {
		run("/SpringIntegration-LockRegistry", "mutex", "mutex");
	}

	@Test
	void zklockAndCuratorsReadWriteLock() throws Exception {
		run("/locks", "read-write-lock", "read-write");
	}

	private void run(String basePath, String nodeNames, String recipe) throws Exception {
		String keyPath = basePath + "/orders";
		Map<Long, JavaProcess> sessions = new ConcurrentHashMap<>();
		List<JavaProcess> processes = new ArrayList<>();
		List<String> killed = new ArrayList<>();
		try (CuratorFramework observer = client()) {
			if (observer.checkExists().forPath(MixedCounter.ROOT) != null) {
				observer.delete().deletingChildrenIfNeeded().forPath(MixedCounter.ROOT);
			}
			MixedCounter.prepare(observer);
			try {
				for (String name : List.of("zklock-a", "zklock-b")) {
					processes.add(JavaProcess.builder(ZkLockedCounterApplication.class)
						.name(name)
						.systemProperty("zklock.connect-string", ensemble.connectString())
						.systemProperty("zklock.session-timeout", SESSION_MILLIS + "ms")
						.systemProperty("zklock.lock.base-path", basePath)
						.systemProperty("zklock.lock.node-names", nodeNames)
						.systemProperty("counter.side", name)
						.systemProperty("spring.main.banner-mode", "off")
						.start());
				}
				for (String name : List.of("curator-c", "curator-d")) {
					processes.add(JavaProcess.builder(CuratorCounterMain.class)
						.name(name)
						.args(ensemble.connectString(), recipe, keyPath, "4", Integer.toString(SESSION_MILLIS), name)
						.start());
				}
				for (JavaProcess process : processes) {
					process.awaitOutput("^SESSION \\d+$", Duration.ofSeconds(90));
					String line = process.outputText().lines().filter((l) -> l.startsWith("SESSION ")).findFirst().orElseThrow();
					sessions.put(Long.parseLong(line.substring("SESSION ".length())), process);
				}
				Thread.sleep(3000);
				JavaProcess zklockHolder = killHolder(observer, keyPath, sessions, Set.of("zklock-a", "zklock-b"), killed);
				Thread.sleep(3000);
				JavaProcess curatorHolder = killHolder(observer, keyPath, sessions, Set.of("curator-c", "curator-d"),
						killed);
				Thread.sleep(AFTER_KILLS_MILLIS);
				observer.create().forPath(MixedCounter.STOP);
				for (JavaProcess process : processes) {
					if (process != zklockHolder && process != curatorHolder) {
						assertThat(process.waitFor(Duration.ofSeconds(60))).as(process.name()).isZero();
					}
				}
			}
			finally {
				processes.forEach(JavaProcess::close);
			}
			List<String> writes = observer.getChildren().forPath(MixedCounter.WRITES);
			int counter = Integer.parseInt(new String(observer.getData().forPath(MixedCounter.COUNTER), StandardCharsets.UTF_8));
			long zklock = writes.stream().filter((write) -> write.startsWith("zklock-")).count();
			long curator = writes.size() - zklock;
			// A turn: writes of one process in a row, between writes of others (a zklock instance
			// passes the key among its threads; each thread of Curator has a node of its own).
			List<String> order = writes.stream()
				.sorted(Comparator.comparing((String write) -> write.substring(write.length() - 10)))
				.map((write) -> write.substring(0, write.length() - 11))
				.toList();
			int zklockTurns = 0;
			int curatorTurns = 0;
			for (int i = 0; i < order.size(); i++) {
				if (i == 0 || !order.get(i).equals(order.get(i - 1))) {
					if (order.get(i).startsWith("zklock-")) {
						zklockTurns++;
					}
					else {
						curatorTurns++;
					}
				}
			}
			System.out.printf("%s: %d writes, zklock %d in %d turns, curator %d in %d turns, counter %d%n", recipe,
					writes.size(), zklock, zklockTurns, curator, curatorTurns, counter);
			assertThat(observer.getChildren().forPath(MixedCounter.OVERLAPS)).as("overlaps").isEmpty();
			assertThat(counter).as("the counter: no update lost").isEqualTo(writes.size());
			assertThat(zklock).as("zklock's writes").isGreaterThanOrEqualTo(writes.size() / 20);
			assertThat(curator).as("Curator's writes").isGreaterThanOrEqualTo(writes.size() / 20);
			assertThat(zklockTurns).as("zklock's turns").isGreaterThanOrEqualTo((zklockTurns + curatorTurns) / 10);
			assertThat(curatorTurns).as("Curator's turns").isGreaterThanOrEqualTo((zklockTurns + curatorTurns) / 10);
			assertThat(killed).as("a holder of each side killed").hasSize(2);
		}
	}

	/**
	 * Kill, with {@code SIGKILL}, the process of the given names whose node holds the key (the
	 * lowest sequence) the first time one of them is seen holding it within 20 seconds.
	 * @return the process killed, or {@code null} if none was seen holding the key
	 */
	private static @Nullable JavaProcess killHolder(CuratorFramework observer, String keyPath,
			Map<Long, JavaProcess> sessions, Set<String> names, List<String> killed) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (System.nanoTime() < deadline) {
			List<String> children;
			try {
				children = observer.getChildren().forPath(keyPath);
			}
			catch (KeeperException.NoNodeException ex) {
				// Nobody wants the key for a moment: its container node was reaped.
				children = List.of();
			}
			String lowest = children.stream()
				.filter((child) -> child.matches(".*\\d{10}"))
				.min(Comparator.comparing((String child) -> child.substring(child.length() - 10)))
				.orElse(null);
			if (lowest != null) {
				Stat stat = observer.checkExists().forPath(keyPath + "/" + lowest);
				JavaProcess owner = (stat != null) ? sessions.get(stat.getEphemeralOwner()) : null;
				if (owner != null && names.contains(owner.name())) {
					owner.kill();
					killed.add(owner.name() + " holding " + lowest);
					System.out.println("killed " + owner.name() + ", holding " + lowest);
					return owner;
				}
			}
			Thread.sleep(1);
		}
		System.out.println("none of " + names + " was seen holding " + keyPath + " in 20 s");
		return null;
	}

	private static CuratorFramework client() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(ensemble.connectString())
			.sessionTimeoutMs(10_000)
			.retryPolicy(new ExponentialBackoffRetry(50, 10, 1000))
			.build();
		client.start();
		client.blockUntilConnected();
		return client;
	}

}
