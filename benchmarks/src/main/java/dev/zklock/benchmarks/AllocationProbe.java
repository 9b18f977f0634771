package dev.zklock.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;

import dev.zklock.ZkLockTemplate;
import dev.zklock.benchmarks.library.ExclusiveLocks;
import dev.zklock.benchmarks.library.Library;
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockSettings;

/**
 * Where the bytes and the CPU time of an uncontended call go, thread by thread: one thread locks
 * the same key with zklock's defaults against an in-process server, warmed, then prints the bytes
 * each client-side thread allocated and the CPU time it used per call over three rounds (the
 * server's threads, which share this JVM, are left out). With {@code floor} as its second
 * argument the thread makes the floor's call instead ({@link Library#FLOOR}, the benchmarks' own:
 * a synchronous create and delete of a sequential node under the key's node, by the same
 * client), so that the client's own cost of the two can be set side by side. A probe to find
 * where to cut, beside the JMH figures (JMH's profilers count every thread of a benchmark's
 * process together); not a benchmark.
 * <p>
 * {@code java -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
 * dev.zklock.benchmarks.AllocationProbe [calls per round, 8000] [zklock|floor]}, after
 * {@code ./mvnw -B -q -pl benchmarks -am package -DskipTests}.
 */
public final class AllocationProbe {

	private static final String KEY = "uncontended";

	private static final Runnable NOTHING = () -> {
	};

	private AllocationProbe() {
	}

	public static void main(String[] args) throws Exception {
		int calls = (args.length > 0) ? Integer.parseInt(args[0]) : 8000;
		boolean floor = (args.length > 1) && "floor".equals(args[1]);
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
			.getThreadMXBean();
		try (TestingServer server = new TestingServer(true);
				CuratorFramework client = CuratorFrameworkFactory.builder()
					.connectString(server.getConnectString())
					.retryPolicy(new ExponentialBackoffRetry(1000, 3))
					.build()) {
			client.start();
			client.blockUntilConnected();
			ZkLockTemplate template = new ZkLockTemplate(client, "/zklock", Duration.ofSeconds(30), false,
					LockCallListener.NONE, LockSettings.DEFAULTS);
			ExclusiveLocks floorCycle = Library.FLOOR.exclusive(client);
			Runnable cycles = floor ? () -> floorCycles(floorCycle, calls) : () -> lockCycles(template, calls);
			try {
				cycles.run();
				cycles.run();
				for (int round = 1; round <= 3; round++) {
					Map<Thread, long[]> before = used(threads);
					cycles.run();
					Map<Thread, long[]> after = used(threads);
					System.out.println("round " + round + " (" + (floor ? "floor" : "zklock")
							+ "), per call: bytes allocated, CPU time (ns)");
					long[] total = new long[2];
					after.forEach((thread, now) -> {
						long[] then = before.getOrDefault(thread, new long[2]);
						long bytes = (now[0] - then[0]) / calls;
						long cpu = (now[1] - then[1]) / calls;
						if ((bytes > 0 || cpu > 0) && !isServers(thread)) {
							total[0] += bytes;
							total[1] += cpu;
							System.out.printf("  %-50s %,8d %,10d%n", thread.getName(), bytes, cpu);
						}
					});
					System.out.printf("  %-50s %,8d %,10d%n", "client's threads", total[0], total[1]);
				}
			}
			finally {
				template.close();
			}
		}
	}

	private static void lockCycles(ZkLockTemplate template, int calls) {
		for (int i = 0; i < calls; i++) {
			template.execute(KEY, (lock) -> null);
		}
	}

	private static void floorCycles(ExclusiveLocks floor, int calls) {
		try {
			for (int i = 0; i < calls; i++) {
				floor.runExclusive(KEY, NOTHING);
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Each live thread's allocated bytes and CPU time so far.
	 */
	private static Map<Thread, long[]> used(com.sun.management.ThreadMXBean threads) {
		Map<Thread, long[]> used = new LinkedHashMap<>();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			long allocated = threads.getThreadAllocatedBytes(thread.getId());
			long cpu = threads.getThreadCpuTime(thread.getId());
			if (allocated >= 0 && cpu >= 0) {
				used.put(thread, new long[] { allocated, cpu });
			}
		}
		return used;
	}

	/**
	 * Whether the thread is one of the in-process server's (ZooKeeper names them so).
	 */
	private static boolean isServers(Thread thread) {
		String name = thread.getName();
		return name.startsWith("NIOServerCxnFactory") || name.startsWith("NIOWorker")
				|| name.startsWith("SyncThread") || name.startsWith("ProcessThread")
				|| name.startsWith("RequestThrottler") || name.startsWith("SessionTracker")
				|| name.startsWith("CommitProcessor") || name.startsWith("ConnnectionExpirer")
				|| name.startsWith("zkservermainrunner");
	}

}
