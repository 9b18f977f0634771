package dev.zklock.test;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The daemon threads of one {@link ChaosProxy}, named after it, so that closing the proxy can
 * wait for every one of them to end.
 */
final class DaemonThreads {

	private final String prefix;

	private final Set<Thread> running = ConcurrentHashMap.newKeySet();

	DaemonThreads(String prefix) {
		this.prefix = prefix;
	}

	void start(String name, Runnable task) {
		Thread thread = new Thread(() -> {
			try {
				task.run();
			}
			finally {
				this.running.remove(Thread.currentThread());
			}
		}, this.prefix + "-" + name);
		thread.setDaemon(true);
		this.running.add(thread);
		thread.start();
	}

	/**
	 * Wait for every thread, those started meanwhile included, to end.
	 * @param timeout the longest time to wait in all
	 */
	void awaitAll(Duration timeout) {
		Instant deadline = Instant.now().plus(timeout);
		while (!this.running.isEmpty() && Instant.now().isBefore(deadline)) {
			for (Thread thread : this.running) {
				try {
					thread.join(Math.max(1, Duration.between(Instant.now(), deadline).toMillis()));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

}
