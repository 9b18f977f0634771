package dev.zklock.curator;

import java.util.function.BooleanSupplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * A process of raw Curator in the mixed runs: threads that take Curator's {@code InterProcessMutex}
 * ({@code mutex}) or {@code InterProcessReadWriteLock} ({@code read-write}: the first thread
 * reads under its read lock, the others write under its write lock) on one path, each a lock
 * object of its own, and run {@link MixedCounter}'s sections until the test ends the run. Prints
 * {@code SESSION <id>} once connected. Arguments: connect string, recipe, lock path, threads,
 * session timeout in milliseconds, the name its writes carry.
 */
public final class CuratorCounterMain {

	private CuratorCounterMain() {
	}

	public static void main(String[] args) throws Exception {
		String recipe = args[1];
		String path = args[2];
		int threads = Integer.parseInt(args[3]);
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(args[0])
			.sessionTimeoutMs(Integer.parseInt(args[4]))
			.retryPolicy(new ExponentialBackoffRetry(50, 10, 500))
			.build();
		client.start();
		client.blockUntilConnected();
		System.out.println("SESSION " + client.getZookeeperClient().getZooKeeper().getSessionId());
		MixedCounter counter = new MixedCounter(client, args[5]);
		BooleanSupplier stopped = MixedCounter.runUntilStopped(client);
		Thread[] running = new Thread[threads];
		for (int i = 0; i < threads; i++) {
			boolean reader = recipe.equals("read-write") && i == 0;
			InterProcessLock lock = recipe.equals("mutex") ? new InterProcessMutex(client, path)
					: reader ? new InterProcessReadWriteLock(client, path).readLock()
							: new InterProcessReadWriteLock(client, path).writeLock();
			running[i] = new Thread(() -> {
				try {
					while (!stopped.getAsBoolean()) {
						lock.acquire();
						try {
							if (reader) {
								counter.read();
							}
							else {
								counter.write();
							}
						}
						finally {
							lock.release();
						}
					}
				}
				catch (Exception ex) {
					ex.printStackTrace();
					System.exit(2);
				}
			}, "curator-" + i);
			running[i].start();
		}
		for (Thread thread : running) {
			thread.join();
		}
		System.out.println("DONE");
		System.exit(0);
	}

}
