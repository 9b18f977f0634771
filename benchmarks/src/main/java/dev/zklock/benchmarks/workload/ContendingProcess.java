package dev.zklock.benchmarks.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.benchmarks.library.CuratorClients;
import dev.zklock.benchmarks.library.ExclusiveLocks;
import dev.zklock.benchmarks.library.Library;

/**
 * The second JVM of workload 4: threads of one client locking one key in a loop, as the
 * benchmark JVM does, until the process is stopped or its time is up. Prints
 * {@value #READY} once every thread has held the lock, and the number of cycles at the end.
 */
public final class ContendingProcess {

	/** Printed once every thread has held the lock once. */
	public static final String READY = "contending";

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	private ContendingProcess() {
	}

	/**
	 * Contend for a key.
	 * @param args library id, connect string, key, number of threads, most seconds to run
	 * @throws InterruptedException if interrupted while waiting for the end
	 */
	public static void main(String[] args) throws InterruptedException {
		if (args.length != 5) {
			throw new IllegalArgumentException("Usage: ContendingProcess <library> <connect-string> <key> <threads> "
					+ "<max-seconds>");
		}
		Library library = Library.of(args[0]);
		String key = args[2];
		int threads = Integer.parseInt(args[3]);
		Duration maxTime = Duration.ofSeconds(Long.parseLong(args[4]));
		CuratorFramework client = CuratorClients.connect(args[1]);
		ExclusiveLocks locks = library.exclusive(client);
		Contention contention = new Contention(locks, key, threads);
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			contention.stop();
			ZooKeeperTarget.closeAll(locks, client);
			System.out.println("cycles=" + contention.cycles());
			System.out.flush();
			stopped.countDown();
		}, "contention-stop"));
		contention.start();
		contention.awaitEveryThread(STOP_TIMEOUT);
		System.out.println(READY);
		System.out.flush();
		if (!stopped.await(maxTime.toMillis(), TimeUnit.MILLISECONDS)) {
			System.exit(0);
		}
	}

	/**
	 * Threads locking one key in a loop.
	 */
	private static final class Contention {

		private final ExclusiveLocks locks;

		private final String key;

		private final List<Thread> threads = new ArrayList<>();

		private final CountDownLatch everyThreadHeld;

		private final LongAdder cycles = new LongAdder();

		private volatile boolean running = true;

		Contention(ExclusiveLocks locks, String key, int threads) {
			this.locks = locks;
			this.key = key;
			this.everyThreadHeld = new CountDownLatch(threads);
			for (int i = 0; i < threads; i++) {
				Thread thread = new Thread(this::loop, "contender-" + i);
				thread.setDaemon(true);
				this.threads.add(thread);
			}
		}

		void start() {
			this.threads.forEach(Thread::start);
		}

		void awaitEveryThread(Duration timeout) throws InterruptedException {
			if (!this.everyThreadHeld.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("Not every thread got the lock within " + timeout);
			}
		}

		long cycles() {
			return this.cycles.sum();
		}

		void stop() {
			this.running = false;
			long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
			for (Thread thread : this.threads) {
				try {
					thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}

		private void loop() {
			boolean first = true;
			while (this.running) {
				try {
					this.locks.runExclusive(this.key, ZooKeeperTarget.NO_WORK);
				}
				catch (Exception ex) {
					if (this.running) {
						ex.printStackTrace();
					}
					return;
				}
				this.cycles.increment();
				if (first) {
					this.everyThreadHeld.countDown();
					first = false;
				}
			}
		}

	}

}
