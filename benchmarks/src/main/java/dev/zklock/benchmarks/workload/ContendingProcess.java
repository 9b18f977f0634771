package dev.zklock.benchmarks.workload;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import dev.zklock.benchmarks.library.CuratorClients;
import dev.zklock.benchmarks.library.ExclusiveLocks;
import dev.zklock.benchmarks.library.FencedLocks;
import dev.zklock.benchmarks.library.Library;

/**
 * The second JVM of workloads 4 and 4t: threads of one client locking one key in a loop, as the
 * benchmark JVM does (asking every grant's fencing token where fenced), until the process is
 * stopped or its time is up. Prints {@value #READY}
 * and a loopback port once every thread has held the lock; whoever connects to that port reads
 * one line: the number of grants so far, and the longest time between two grants since the
 * previous reader (nanoseconds).
 */
public final class ContendingProcess {

	/** Printed, followed by the port to read the grants from, once every thread has held the lock. */
	public static final String READY = "contending port=";

	/** The last argument where every holder asks for its fencing token. */
	public static final String FENCED = "fenced";

	/** The last argument for the plain lock cycle. */
	public static final String PLAIN = "plain";

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	private ContendingProcess() {
	}

	/**
	 * Contend for a key.
	 * @param args library id, connect string, key, number of threads, most seconds to run,
	 * {@value #FENCED} or {@value #PLAIN}
	 * @throws Exception if interrupted while waiting for the end, or the port cannot be opened
	 */
	public static void main(String[] args) throws Exception {
		if (args.length != 6 || !(args[5].equals(FENCED) || args[5].equals(PLAIN))) {
			throw new IllegalArgumentException("Usage: ContendingProcess <library> <connect-string> <key> <threads> "
					+ "<max-seconds> " + FENCED + "|" + PLAIN);
		}
		Library library = Library.of(args[0]);
		String key = args[2];
		int threads = Integer.parseInt(args[3]);
		Duration maxTime = Duration.ofSeconds(Long.parseLong(args[4]));
		CuratorFramework client = CuratorClients.connect(args[1]);
		FencedLocks fencedLocks = args[5].equals(FENCED) ? library.fenced(client) : null;
		ExclusiveLocks locks = (fencedLocks != null) ? fencedLocks : library.exclusive(client);
		Contention contention = new Contention(locks, fencedLocks, key, threads);
		ServerSocket counter = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			contention.stop();
			ZooKeeperTarget.closeAll(locks, client, counter);
			System.out.println("cycles=" + contention.cycles());
			System.out.flush();
			stopped.countDown();
		}, "contention-stop"));
		contention.start();
		contention.awaitEveryThread(STOP_TIMEOUT);
		Thread answering = new Thread(() -> answer(counter, contention), "grant-counter");
		answering.setDaemon(true);
		answering.start();
		System.out.println(READY + counter.getLocalPort());
		System.out.flush();
		if (!stopped.await(maxTime.toMillis(), TimeUnit.MILLISECONDS)) {
			System.exit(0);
		}
	}

	private static void answer(ServerSocket counter, Contention contention) {
		while (!counter.isClosed()) {
			try (Socket socket = counter.accept(); OutputStream out = socket.getOutputStream()) {
				out.write((contention.cycles() + " " + contention.gaps.longestThenReset() + "\n")
					.getBytes(StandardCharsets.US_ASCII));
			}
			catch (IOException ex) {
				// Closed at the end, or a reader gone: the next one asks again.
			}
		}
	}

	/**
	 * Threads locking one key in a loop.
	 */
	private static final class Contention {

		private final ExclusiveLocks locks;

		private final @Nullable FencedLocks fencedLocks;

		private final String key;

		private final List<Thread> threads = new ArrayList<>();

		private final CountDownLatch everyThreadHeld;

		private final LongAdder cycles = new LongAdder();

		private final GrantGaps gaps = new GrantGaps();

		private volatile boolean running = true;

		Contention(ExclusiveLocks locks, @Nullable FencedLocks fencedLocks, String key, int threads) {
			this.locks = locks;
			this.fencedLocks = fencedLocks;
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
					if (this.fencedLocks != null) {
						this.fencedLocks.runFenced(this.key, ZooKeeperTarget.NO_WORK);
					}
					else {
						this.locks.runExclusive(this.key, ZooKeeperTarget.NO_WORK);
					}
				}
				catch (Exception ex) {
					if (this.running) {
						ex.printStackTrace();
					}
					return;
				}
				this.cycles.increment();
				this.gaps.granted();
				if (first) {
					this.everyThreadHeld.countDown();
					first = false;
				}
			}
		}

	}

}
