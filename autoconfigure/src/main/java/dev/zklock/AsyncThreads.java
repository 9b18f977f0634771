package dev.zklock;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The template's own threads for asynchronous calls, when the application gives it no executor:
 * daemon threads, created as needed and ended after a minute unused.
 */
final class AsyncThreads {

	private AsyncThreads() {
	}

	static ExecutorService newPool() {
		AtomicInteger count = new AtomicInteger();
		return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), (task) -> {
			Thread thread = new Thread(task, "zklock-async-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
	}

}
