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
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockSettings;

/**
 * Where the bytes of an uncontended call are allocated, thread by thread: one thread locks the
 * same key with zklock's defaults against an in-process server, warmed, then prints the bytes
 * each client-side thread allocated per call over three rounds (the server's threads, which
 * share this JVM, are left out). A probe to find where to cut, beside the JMH figures (JMH's GC
 * profiler counts every thread of a benchmark's process together); not a benchmark.
 * <p>
 * {@code java -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
 * dev.zklock.benchmarks.AllocationProbe [calls per round, 8000]}, after {@code ./mvnw -B -q -pl
 * benchmarks -am package -DskipTests}.
 */
public final class AllocationProbe {

	private static final String KEY = "uncontended";

	private AllocationProbe() {
	}

	public static void main(String[] args) throws Exception {
		int calls = (args.length > 0) ? Integer.parseInt(args[0]) : 8000;
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
			try {
				lockCycles(template, calls);
				for (int round = 1; round <= 3; round++) {
					Map<Thread, Long> before = allocated(threads);
					lockCycles(template, calls);
					Map<Thread, Long> after = allocated(threads);
					System.out.println("round " + round + ", bytes per call:");
					after.forEach((thread, bytes) -> {
						long perCall = (bytes - before.getOrDefault(thread, 0L)) / calls;
						if (perCall > 0 && !isServers(thread)) {
							System.out.printf("  %-50s %,8d%n", thread.getName(), perCall);
						}
					});
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

	private static Map<Thread, Long> allocated(com.sun.management.ThreadMXBean threads) {
		Map<Thread, Long> bytes = new LinkedHashMap<>();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			long allocated = threads.getThreadAllocatedBytes(thread.getId());
			if (allocated >= 0) {
				bytes.put(thread, allocated);
			}
		}
		return bytes;
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
