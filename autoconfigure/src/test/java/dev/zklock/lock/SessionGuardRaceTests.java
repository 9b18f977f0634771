package dev.zklock.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.LockMode;
import dev.zklock.leader.RaceThreads;
import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * Thread races of {@link SessionGuard} and {@link ActiveLock}, explored by Lincheck's model
 * checker: each test runs its threads again and again under a scheduler that chooses where they
 * switch, and reports the interleaving that breaks the property. The guard and the lock are the
 * library's own classes; the {@link ConnectionFactsPort} under them only states whether the client
 * is connected and its session, and answers a token write at once on the asking thread. It is no
 * model of ZooKeeper's lock semantics, which the tests against real servers and the simulator
 * cover.
 */
@Timeout(120)
class SessionGuardRaceTests {

	/**
	 * How many interleavings each test of the guard runs: the breaks of
	 * {@code docs/RELIABILITY.md} are caught within the first twenty.
	 */
	private static final int INVOCATIONS = 100;

	/**
	 * How many interleavings the token test runs (each takes longer).
	 */
	private static final int TOKEN_INVOCATIONS = 50;

	private static final int TOKENS = 2;

	private static final long SESSION = 7;

	private static final String NODE = "/locks/key/_c_id-lock-0000000001";

	@Test
	void lockGrantedWhileAnOperatorReleasesItsNodeEndsLost() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> {
			ConnectionFactsPort port = new ConnectionFactsPort(true, SESSION, 100);
			SessionGuard guard = guard(port);
			ActiveLock lock = lock(port);
			Thread granting = RaceThreads.start(() -> guard.add(lock, port));
			Thread releasing = RaceThreads.start(() -> guard.loseReleased(Set.of(NODE), SESSION, "released by an operator"));
			RaceThreads.join(granting, releasing);
			RaceThreads.check(lock.state() == ActiveLock.State.LOST, "a lock whose node was released is " + lock.state());
		});
	}

	@Test
	void lockGrantedWhileTheConnectionComesBackIsNotLeftInDoubt() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> {
			ConnectionFactsPort port = new ConnectionFactsPort(false, SESSION, 100);
			SessionGuard guard = guard(port);
			guard.changed(ZooKeeperPort.Connection.SUSPENDED);
			ActiveLock lock = lock(port);
			Thread granting = RaceThreads.start(() -> guard.add(lock, port));
			Thread reconnecting = RaceThreads.start(() -> {
				port.connect();
				guard.changed(ZooKeeperPort.Connection.RECONNECTED);
			});
			RaceThreads.join(granting, reconnecting);
			RaceThreads.check(lock.state() == ActiveLock.State.VALID,
					"a lock of the current session is " + lock.state() + " while the client is connected");
		});
	}

	@Test
	void tokensTakenOnTwoThreadsAreDistinctAndIncreaseOnEach() {
		Lincheck.runConcurrentTest(TOKEN_INVOCATIONS, () -> {
			ConnectionFactsPort port = new ConnectionFactsPort(true, SESSION, 100);
			// Two counts a zxid: the write for the next zxid is sent at every other token, and
			// answered at once on the thread that takes it.
			ActiveLock lock = lock(port);
			List<Long> first = new ArrayList<>();
			List<Long> second = new ArrayList<>();
			Thread one = RaceThreads.start(() -> takeTokens(lock, first));
			Thread two = RaceThreads.start(() -> takeTokens(lock, second));
			RaceThreads.join(one, two);
			String tokens = first + " and " + second;
			RaceThreads.check(first.size() == TOKENS && second.size() == TOKENS, "tokens taken: " + tokens);
			RaceThreads.check(increasing(first) && increasing(second), "tokens of one thread not increasing: " + tokens);
			RaceThreads.check(first.stream().noneMatch(second::contains), "a token given twice: " + tokens);
		});
	}

	private static void takeTokens(ActiveLock lock, List<Long> tokens) {
		for (int i = 0; i < TOKENS; i++) {
			tokens.add(lock.newToken());
		}
	}

	private static boolean increasing(List<Long> tokens) {
		for (int i = 1; i < tokens.size(); i++) {
			if (tokens.get(i) <= tokens.get(i - 1)) {
				return false;
			}
		}
		return true;
	}

	private static SessionGuard guard(ConnectionFactsPort port) {
		return new SessionGuard(false, new Stalls(port), port);
	}

	private static ActiveLock lock(ConnectionFactsPort port) {
		LockNode node = new LockNode(NODE, SESSION, LockMode.EXCLUSIVE, 100, port.nanoTime());
		return new ActiveLock("key", node, port, (since) -> false, LockCallListener.NONE, 2, () -> {
		});
	}

}
