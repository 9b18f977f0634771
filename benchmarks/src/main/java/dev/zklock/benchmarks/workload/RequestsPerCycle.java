package dev.zklock.benchmarks.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.benchmarks.library.CuratorClients;
import dev.zklock.benchmarks.library.ExclusiveLocks;
import dev.zklock.benchmarks.library.Library;
import dev.zklock.benchmarks.library.Locks;
import dev.zklock.benchmarks.library.SharedLocks;
import dev.zklock.benchmarks.library.SkippingLocks;

/**
 * Workload 7: ZooKeeper requests and writes per uncontended lock cycle, for each library,
 * counted by the server itself: requests on the measuring session's own connection, writes by
 * the server's zxid (no other client writes while this runs). After the cycles, one read on the same session makes sure every earlier request, including releases
 * sent in the background, has been processed (ZooKeeper answers a session's requests in order);
 * the requests of that read and of the counting itself are measured once without cycles and
 * subtracted. zklock is counted on each of its paths: a node per call ({@code PER_CALL}), the
 * defaults (handoff on, which one thread alone never uses), the first use of a key, and the
 * reuse of a kept lock.
 */
public final class RequestsPerCycle {

	private static final int WARMUP_CYCLES = 3;

	private static final String KEY = "requests";

	/**
	 * How a cycle uses the lock.
	 */
	public enum Kind {

		/** Take the lock exclusively and release it, the same key every cycle. */
		EXCLUSIVE,

		/** Take the lock of a key never used before exclusively and release it. */
		FIRST_USE,

		/** Take the lock shared and release it. */
		SHARED,

		/** Take the lock if it is free, without waiting, and release it; nobody else holds it. */
		SKIP_IF_FREE,

		/** Try to take the lock without waiting while another session holds it, and skip. */
		SKIP_IF_HELD

	}

	/**
	 * A library and a way of using it.
	 *
	 * @param library the library
	 * @param kind how a cycle uses the lock
	 */
	public record Case(Library library, Kind kind) {

	}

	/**
	 * What one cycle costs.
	 *
	 * @param subject the library and use
	 * @param requests the requests the server received per cycle
	 * @param writes the transactions (zxids) per cycle
	 */
	public record Count(Case subject, double requests, double writes) {

	}

	/** Every library and use measured, in report order. */
	public static final List<Case> CASES = List.of(new Case(Library.FLOOR, Kind.EXCLUSIVE),
			new Case(Library.CURATOR, Kind.EXCLUSIVE), new Case(Library.SPRING_INTEGRATION, Kind.EXCLUSIVE),
			new Case(Library.ZKLOCK, Kind.EXCLUSIVE), new Case(Library.ZKLOCK_PER_CALL, Kind.EXCLUSIVE),
			new Case(Library.ZKLOCK_KEEP, Kind.EXCLUSIVE), new Case(Library.ZKLOCKED, Kind.EXCLUSIVE),
			new Case(Library.CURATOR, Kind.FIRST_USE), new Case(Library.ZKLOCK, Kind.FIRST_USE),
			new Case(Library.ZKLOCK_PER_CALL, Kind.FIRST_USE), new Case(Library.CURATOR, Kind.SHARED),
			new Case(Library.ZKLOCK, Kind.SHARED), new Case(Library.SHEDLOCK, Kind.SKIP_IF_FREE),
			new Case(Library.CURATOR, Kind.SKIP_IF_FREE), new Case(Library.ZKLOCK, Kind.SKIP_IF_FREE),
			new Case(Library.SHEDLOCK, Kind.SKIP_IF_HELD), new Case(Library.CURATOR, Kind.SKIP_IF_HELD),
			new Case(Library.ZKLOCK, Kind.SKIP_IF_HELD));

	private RequestsPerCycle() {
	}

	/**
	 * Count the requests of every case.
	 * @param connectString the connect string of one server
	 * @param clientPort that server's client port
	 * @param cycles the cycles to count over
	 * @return one count per case, in the order of {@link #CASES}
	 * @throws Exception if a library fails
	 */
	public static List<Count> measure(String connectString, int clientPort, int cycles) throws Exception {
		List<Count> counts = new ArrayList<>();
		try (CuratorFramework client = CuratorClients.connect(connectString)) {
			ServerCounters overhead = count(client, clientPort, () -> {
			});
			for (Case subject : CASES) {
				if (subject.kind() == Kind.SKIP_IF_HELD) {
					try (LockHolder holder = LockHolder.hold(connectString, subject.library(), KEY)) {
						counts.add(measure(client, clientPort, subject, cycles, overhead));
					}
				}
				else {
					counts.add(measure(client, clientPort, subject, cycles, overhead));
				}
			}
		}
		return counts;
	}

	private static Count measure(CuratorFramework client, int clientPort, Case subject, int cycles,
			ServerCounters overhead) throws Exception {
		try (Locks locks = open(subject, client)) {
			Cycle cycle = cycle(subject.kind(), locks);
			for (int i = 0; i < WARMUP_CYCLES; i++) {
				cycle.run();
			}
			ServerCounters counted = count(client, clientPort, () -> {
				for (int i = 0; i < cycles; i++) {
					cycle.run();
				}
			});
			return new Count(subject, (double) (counted.received() - overhead.received()) / cycles,
					(double) (counted.zxid() - overhead.zxid()) / cycles);
		}
	}

	private static ServerCounters count(CuratorFramework client, int clientPort, Cycle cycles) throws Exception {
		long sessionId = client.getZookeeperClient().getZooKeeper().getSessionId();
		settle(client);
		ServerCounters before = ServerCounters.read(clientPort, sessionId);
		cycles.run();
		settle(client);
		return ServerCounters.read(clientPort, sessionId).since(before);
	}

	private static void settle(CuratorFramework client) throws Exception {
		client.checkExists().forPath("/");
	}

	private static Locks open(Case subject, CuratorFramework client) {
		return switch (subject.kind()) {
			case EXCLUSIVE, FIRST_USE -> subject.library().exclusive(client);
			case SHARED -> subject.library().shared(client);
			case SKIP_IF_FREE, SKIP_IF_HELD -> subject.library().skipping(client);
		};
	}

	private static Cycle cycle(Kind kind, Locks locks) {
		return switch (kind) {
			case EXCLUSIVE -> () -> ((ExclusiveLocks) locks).runExclusive(KEY, ZooKeeperTarget.NO_WORK);
			case FIRST_USE -> {
				String prefix = KEY + "-" + UUID.randomUUID() + "-";
				AtomicLong keys = new AtomicLong();
				yield () -> ((ExclusiveLocks) locks).runExclusive(prefix + keys.incrementAndGet(),
						ZooKeeperTarget.NO_WORK);
			}
			case SHARED -> () -> ((SharedLocks) locks).runShared(KEY, ZooKeeperTarget.NO_WORK);
			case SKIP_IF_FREE -> () -> skip((SkippingLocks) locks, true);
			case SKIP_IF_HELD -> () -> skip((SkippingLocks) locks, false);
		};
	}

	private static void skip(SkippingLocks locks, boolean free) throws Exception {
		if (locks.runIfFree(KEY, ZooKeeperTarget.NO_WORK) != free) {
			throw new IllegalStateException("The lock on " + KEY + " was " + (free ? "not free" : "free"));
		}
	}

	@FunctionalInterface
	private interface Cycle {

		void run() throws Exception;

	}

}
