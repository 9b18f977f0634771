package dev.zklock.lock;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.zookeeper.CuratorPort;
import dev.zklock.zookeeper.ZooKeeperPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's server and client ({@link SimServer}, {@link SimClient}) against a real
 * ZooKeeper server behind {@link CuratorPort}: each script runs on both, through the port the
 * lock core uses, and what the core could observe must be the same (see
 * {@link ConformanceTranscript} for how the two transcripts are made comparable). When they
 * differ, the real server is right and the model is to be fixed. Each script has a real server of
 * its own, whose container manager runs only where the script asks for it. The system property
 * {@code zklock.conformance.print} prints every real transcript.
 */
@Timeout(60)
class SimulatorConformanceTests {

	private static final String BASE = "/zklock/locks";

	private static final String KEY = BASE + "/k";

	private static final String OTHER_KEY = BASE + "/k2";

	private static final Duration NO_REAPER = Duration.ofHours(1);

	private static final Duration REAPER = Duration.ofMillis(100);

	private static final int SEEDS = 3;

	@Test
	void firstUse() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			// The base path is missing: the failed transaction, then the containers (the second
			// time NODEEXISTS), then the transaction again: one zxid, the key's czxid.
			a.createKeyAndLockNode(KEY, LockMode.EXCLUSIVE).get();
			a.createContainers(BASE).get();
			a.createContainers(BASE).get();
			ZooKeeperPort.KeyCreated first = a.createKeyAndLockNode(KEY, LockMode.EXCLUSIVE).ok();
			a.exists(KEY, null).get();
			a.exists(first.lockNodePath(), null).get();
			a.exists("/zklock", null).get();
			ConformanceClient b = side.open("B");
			b.createKeyAndLockNode(KEY, LockMode.SHARED).get();
			b.createLockNode(lockNode(KEY, LockMode.SHARED)).get();
			a.getChildren(KEY, null).get();
			a.exists(KEY, null).get();
		});
	}

	@Test
	void electionNodes() throws Exception {
		conforms(NO_REAPER, (side) -> {
			String group = "/zklock/leader/g";
			ConformanceClient a = side.open("A");
			// The group node and its parents are made as containers on the first create.
			String first = a.createSequentialNode(group, "a").ok().path();
			a.exists(group, null).get();
			a.exists("/zklock/leader", null).get();
			a.getData(first).get();
			ConformanceClient b = side.open("B");
			String second = b.createSequentialNode(group, "b").ok().path();
			b.getChildren(group, null).get();
			// A watch removed does not fire; one left does, once.
			b.exists(first, "b1").get();
			a.exists(second, "a1").get();
			a.removeWatches(second);
			a.settle().get();
			b.delete(second).get();
			a.getChildren(group, null).get();
			a.delete(first).get();
			b.getData(first).get();
			b.settle().get();
			a.createSequentialNode(group, "a").get();
			a.getChildren(group, null).get();
		});
	}

	@Test
	void protectedCreateAndReadPipelined() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			firstLockNode(a, KEY);
			ConformanceClient b = side.open("B");
			// Sent together, answered in order: the read sees the node just created.
			ConformanceClient.Step<ZooKeeperPort.Created> created = b.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE));
			ConformanceClient.Step<ZooKeeperPort.Children> read = b.getChildren(KEY, null);
			read.get();
			created.get();
			created = b.createLockNode(lockNode(KEY, LockMode.SHARED));
			read = b.getChildren(KEY, "b1");
			read.get();
			created.get();
			created = b.createLockNode(lockNode(OTHER_KEY, LockMode.EXCLUSIVE));
			read = b.getChildren(OTHER_KEY, null);
			read.get();
			created.get();
			a.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).get();
		});
	}

	@Test
	void existsWatchOnPredecessorThenDelete() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			String first = firstLockNode(a, KEY);
			ConformanceClient b = side.open("B");
			String second = b.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).ok().path();
			// A watch of the deleting session fires before the delete's reply; another session's
			// before that session's next reply. One-shot, and on create, delete and setData.
			b.exists(first, "b1").get();
			a.exists(first, "a1").get();
			a.delete(first).get();
			b.getChildren(KEY, null).get();
			a.exists(first, "a2").get();
			b.createLockNode(lockNode(KEY, LockMode.SHARED)).get();
			a.touch(first).get();
			a.exists(second, "a3").get();
			b.touch(second).get();
			a.getChildren(KEY, null).get();
			b.touch(second).get();
			a.exists(OTHER_KEY, "a4").get();
			b.createKeyAndLockNode(OTHER_KEY, LockMode.EXCLUSIVE).get();
			a.exists(OTHER_KEY, null).get();
			b.delete(second).get();
			a.exists(second, null).get();
		});
	}

	@Test
	void childrenWatchThenCreate() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			firstLockNode(a, KEY);
			ConformanceClient b = side.open("B");
			// Fires on a child's create and delete, not on its setData; one-shot.
			a.getChildren(KEY, "a1").get();
			String second = b.createLockNode(lockNode(KEY, LockMode.SHARED)).ok().path();
			a.getChildren(KEY, "a2").get();
			b.touch(second).get();
			a.exists(KEY, null).get();
			b.delete(second).get();
			a.getChildren(KEY, null).get();
			b.createLockNode(lockNode(KEY, LockMode.SHARED)).get();
			a.getChildren(BASE, "a3").get();
			b.createKeyAndLockNode(OTHER_KEY, LockMode.SHARED).get();
			a.getChildren(BASE, null).get();
			a.getChildren(OTHER_KEY, "a4").get();
			b.createKeyAndLockNode(OTHER_KEY, LockMode.SHARED).get();
			a.getChildren(KEY, null).get();
		});
	}

	@Test
	void setDataOnAChildDoesNotMoveThePzxid() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			String first = firstLockNode(a, KEY);
			ConformanceClient b = side.open("B");
			String second = b.createLockNode(lockNode(KEY, LockMode.SHARED)).ok().path();
			a.getChildren(KEY, null).get();
			b.touch(second).get();
			a.getChildren(KEY, null).get();
			a.exists(KEY, null).get();
			a.touch(first).get();
			a.exists(KEY, null).get();
			a.exists(first, null).get();
		});
	}

	@Test
	void aSessionsEphemeralNodesGoWhenItEnds() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			String first = firstLockNode(a, KEY);
			ConformanceClient b = side.open("B");
			String second = b.createLockNode(lockNode(KEY, LockMode.SHARED)).ok().path();
			String third = b.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).ok().path();
			b.createKeyAndLockNode(OTHER_KEY, LockMode.EXCLUSIVE).get();
			b.getChildren(KEY, "b1").get();
			b.touch(third).get();
			a.exists(second, "a1").get();
			a.getChildren(KEY, "a2").get();
			a.getChildren(OTHER_KEY, "a3").get();
			// One transaction: both keys' pzxid move to it; B's own watch goes with B.
			side.end(b);
			a.getChildren(KEY, null).get();
			a.exists(second, null).get();
			a.exists(third, null).get();
			a.getChildren(OTHER_KEY, null).get();
			a.exists(OTHER_KEY, null).get();
			a.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).get();
			a.exists(first, null).get();
		});
	}

	@Test
	void aSessionExpires() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			String first = firstLockNode(a, KEY);
			ConformanceClient b = side.open("B");
			String second = b.createLockNode(lockNode(KEY, LockMode.SHARED)).ok().path();
			b.createKeyAndLockNode(OTHER_KEY, LockMode.SHARED).get();
			b.exists(first, "b1").get();
			a.exists(second, "a1").get();
			a.getChildren(KEY, "a2").get();
			// One transaction deletes B's nodes; B's watches go with its session, unfired; B is
			// told LOST, then has a new session.
			side.expire(b);
			a.getChildren(KEY, null).get();
			a.getChildren(OTHER_KEY, null).get();
			a.touch(first).get();
			b.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).get();
			b.exists(second, null).get();
			a.getChildren(KEY, null).get();
		});
	}

	@Test
	void deleteOfAMissingNode() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			String first = firstLockNode(a, KEY);
			// The touches show whether the failed delete took a zxid.
			a.touch(first).get();
			a.delete(KEY + "/missing").get();
			a.touch(first).get();
			a.delete(BASE + "/missing/child").get();
			a.touch(first).get();
			a.getChildren(KEY, null).get();
		});
	}

	@Test
	void deleteOfANodeWithChildren() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			String first = firstLockNode(a, KEY);
			a.touch(first).get();
			a.delete(KEY).get();
			a.touch(first).get();
			a.delete(BASE).get();
			a.getChildren(KEY, null).get();
			String second = a.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).ok().path();
			a.exists(KEY, "a1").get();
			a.delete(first).get();
			a.delete(second).get();
			a.getChildren(KEY, "a2").get();
			a.delete(KEY).get();
			a.getChildren(BASE, null).get();
		});
	}

	@Test
	void theReleaseOfAKeysLastNodeTakesTheKeyNode() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			String first = firstLockNode(a, KEY);
			ConformanceClient b = side.open("B");
			String second = b.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).ok().path();
			b.exists(first, "b1").get();
			b.exists(KEY, "b2").get();
			// Another node under the key: the transaction fails whole (a failed write, a zxid of
			// its own), and nothing fires.
			a.deleteLockAndKeyNode(first, KEY).get();
			a.touch(first).get();
			b.getChildren(KEY, "b3").get();
			b.delete(second).get();
			// The last node: both go in one zxid, their watches fire, the base's pzxid moves.
			a.getChildren(BASE, "a1").get();
			a.deleteLockAndKeyNode(first, KEY).get();
			b.settle().get();
			a.exists(KEY, null).get();
			a.getChildren(BASE, null).get();
			// Sent again after it was applied: the lock node is gone.
			a.deleteLockAndKeyNode(first, KEY).get();
			// The key made again by the first-use transaction: its sequence starts over.
			b.createKeyAndLockNode(KEY, LockMode.SHARED).get();
			a.getChildren(KEY, null).get();
			// A lock node of another key, then one with children: both fail whole.
			String other = a.createKeyAndLockNode(OTHER_KEY, LockMode.EXCLUSIVE).ok().lockNodePath();
			a.deleteLockAndKeyNode(other, KEY).get();
			a.createContainers(OTHER_KEY + "/x/y").get();
			a.deleteLockAndKeyNode(OTHER_KEY + "/x", OTHER_KEY).get();
			b.getChildren(OTHER_KEY, null).get();
			b.getChildren(KEY, null).get();
		});
	}

	@Test
	void transactionsWaitedForAreAnsweredOnTheWaitingThread() throws Exception {
		Duration within = Duration.ofSeconds(10);
		Duration timeUp = Duration.ofMillis(-1);
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			ConformanceClient b = side.open("B");
			a.createContainers(BASE).get();
			b.getChildren(BASE, "b1").get();
			String first = a.createKeyAndLockNodeWaiting(KEY, LockMode.EXCLUSIVE, within).ok().lockNodePath();
			b.createKeyAndLockNodeWaiting(KEY, LockMode.SHARED, within).get();
			b.getChildren(KEY, "b2").get();
			a.deleteLockAndKeyNodeWaiting(first, KEY, within).get();
			b.settle().get();
			// No time left: answered at once, and sent all the same. A read sent after it sees
			// what it did (a session's requests are served in order).
			b.createKeyAndLockNodeWaiting(KEY, LockMode.SHARED, timeUp).get();
			ZooKeeperPort.Children made = b.getChildren(KEY, null).ok();
			String late = LockNodes.path(KEY, made.names().get(0));
			b.deleteLockAndKeyNodeWaiting(late, KEY, timeUp).get();
			b.exists(KEY, null).get();
			b.getChildren(BASE, null).get();
		});
	}

	@Test
	void failedWritesAndReadsAmongZxids() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			String first = firstLockNode(a, KEY);
			// Between two touches, each failed write (it takes a zxid) and, at the end, the reads and
			// the sync (they take none).
			a.touch(first).get();
			a.touch(KEY + "/missing").get();
			a.touch(first).get();
			a.createLockNode(lockNode(BASE + "/missing", LockMode.EXCLUSIVE)).get();
			a.touch(first).get();
			a.createKeyAndLockNode(KEY, LockMode.EXCLUSIVE).get();
			a.touch(first).get();
			a.createKeyAndLockNode("/missing/k", LockMode.EXCLUSIVE).get();
			a.touch(first).get();
			a.createContainers(BASE).get();
			a.touch(first).get();
			a.createContainers(BASE + "/a/b").get();
			a.touch(first).get();
			a.syncAndRead(first).get();
			a.syncAndRead(KEY + "/missing").get();
			a.getChildren(BASE + "/missing", null).get();
			a.exists(BASE + "/missing", null).get();
			a.touch(first).get();
			a.getChildren(BASE, null).get();
			a.getChildren(BASE + "/a", null).get();
		});
	}

	@Test
	void anEmptyContainerIsReaped() throws Exception {
		conforms(REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			String first = firstLockNode(a, KEY);
			ConformanceClient b = side.open("B");
			b.createKeyAndLockNode(OTHER_KEY, LockMode.EXCLUSIVE).get();
			// Never had a child: never reaped. The key is reaped once empty, in a transaction of its
			// own that moves the base's pzxid and fires both sessions' watches.
			a.createContainers(BASE + "/unused").get();
			a.exists(KEY, "a1").get();
			a.getChildren(BASE, "a2").get();
			b.exists(KEY, "b1").get();
			a.delete(first).get();
			side.reapContainers(KEY);
			b.exists(KEY, null).get();
			a.exists(KEY, null).get();
			a.getChildren(BASE, null).get();
			a.exists(BASE + "/unused", null).get();
			a.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).get();
			a.createKeyAndLockNode(KEY, LockMode.EXCLUSIVE).get();
			a.getChildren(KEY, null).get();
			a.getChildren(BASE, null).get();
		});
	}

	@Test
	void watchesOfADroppedConnectionFireAtTheReconnect() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			String first = firstLockNode(a, KEY);
			ConformanceClient b = side.open("B");
			String second = b.createLockNode(lockNode(KEY, LockMode.SHARED)).ok().path();
			// Watches whose node changed while the connection was down fire at the reconnect, before
			// the next reply; the others stay set (a3 fires on the later setData, a4 never).
			a.exists(second, "a1").get();
			a.getChildren(KEY, "a2").get();
			a.exists(first, "a3").get();
			a.exists(KEY + "/missing", "a4").get();
			side.dropConnection(a);
			b.delete(second).get();
			b.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).get();
			b.exists(first, null).get();
			side.restoreConnection(a);
			a.getChildren(KEY, null).get();
			a.touch(first).get();
			a.exists(first, null).get();
		});
	}

	@Test
	void sequenceNumbersAfterDeletes() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			firstLockNode(a, KEY);
			String second = a.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).ok().path();
			String third = a.createLockNode(lockNode(KEY, LockMode.SHARED)).ok().path();
			// Sequence numbers count the key's creates: deletes (a session's end included) and
			// failed writes do not advance them.
			a.delete(third).get();
			a.delete(second).get();
			a.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).get();
			ConformanceClient b = side.open("B");
			b.createLockNode(lockNode(KEY, LockMode.SHARED)).get();
			b.createLockNode(lockNode(KEY, LockMode.SHARED)).get();
			side.end(b);
			a.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE)).get();
			a.createKeyAndLockNode(KEY, LockMode.EXCLUSIVE).get();
			a.delete(KEY).get();
			a.createLockNode(lockNode(KEY, LockMode.SHARED)).get();
			a.getChildren(KEY, null).get();
		});
	}

	@Test
	void nodesNamedAsCuratorsMutexBesideThoseNamedAsItsReadWriteLock() throws Exception {
		conforms(NO_REAPER, (side) -> {
			ConformanceClient a = side.open("A");
			a.createContainers(BASE).get();
			a.createKeyAndLockNode(KEY, LockMode.EXCLUSIVE, LockNodeNames.MUTEX).get();
			a.createLockNode(lockNode(KEY, LockMode.SHARED, LockNodeNames.MUTEX)).get();
			ConformanceClient b = side.open("B");
			b.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE, LockNodeNames.READ_WRITE_LOCK)).get();
			b.createLockNode(lockNode(KEY, LockMode.EXCLUSIVE, LockNodeNames.MUTEX)).get();
			b.createKeyAndLockNode(KEY, LockMode.SHARED, LockNodeNames.MUTEX).get();
			a.getChildren(KEY, null).get();
			side.end(b);
			a.getChildren(KEY, null).get();
		});
	}

	/**
	 * The core's first use of a key: the transaction, after the base path's containers.
	 * @return the lock node's path
	 */
	private static String firstLockNode(ConformanceClient client, String key) {
		client.createContainers(LockNodes.parent(key)).get();
		return client.createKeyAndLockNode(key, LockMode.EXCLUSIVE).ok().lockNodePath();
	}

	private static String lockNode(String key, LockMode mode) {
		return lockNode(key, mode, LockNodeNames.READ_WRITE_LOCK);
	}

	private static String lockNode(String key, LockMode mode, LockNodeNames names) {
		return LockNodes.path(key, LockNodes.marker(mode, names));
	}

	/**
	 * Run the script on a real server, then on the simulator under a few seeds (other latencies,
	 * other protected ids): every simulated transcript must be the real one.
	 */
	private static void conforms(Duration containerCheck, Script script) throws Exception {
		List<String> real;
		try (RealConformanceSide side = new RealConformanceSide(containerCheck)) {
			script.run(side);
			real = side.finish();
		}
		if (Boolean.getBoolean("zklock.conformance.print")) {
			System.out.println(String.join("\n", real) + "\n");
		}
		for (long seed = 1; seed <= SEEDS; seed++) {
			List<String> simulated;
			try (SimConformanceSide side = new SimConformanceSide(seed)) {
				script.run(side);
				simulated = side.finish();
			}
			long of = seed;
			assertThat(simulated).as(() -> "seed " + of + ": " + differences(real, simulated)).isEqualTo(real);
		}
	}

	/**
	 * Return the two transcripts side by side, line by line, each line of the real server's
	 * followed by the simulator's where they differ.
	 */
	private static String differences(List<String> real, List<String> simulated) {
		StringBuilder text = new StringBuilder("the simulator (sim) disagrees with a real server (real):\n");
		for (int i = 0; i < Math.max(real.size(), simulated.size()); i++) {
			String expected = (i < real.size()) ? real.get(i) : "(nothing)";
			String actual = (i < simulated.size()) ? simulated.get(i) : "(nothing)";
			if (expected.equals(actual)) {
				text.append("       ").append(expected).append('\n');
			}
			else {
				text.append("  real ").append(expected).append('\n').append("  sim  ").append(actual).append('\n');
			}
		}
		return text.toString();
	}

	@FunctionalInterface
	private interface Script {

		void run(ConformanceSide side) throws Exception;

	}

}
