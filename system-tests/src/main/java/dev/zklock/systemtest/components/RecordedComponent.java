package dev.zklock.systemtest.components;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.zklock.LeaderTerm;
import dev.zklock.ZkLeadership;
import dev.zklock.systemtest.history.HistoryWriter;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * A leader-only component of one group, a stand-in for a listener container: from its
 * {@code start()} to the return of its {@code stop()} it logs the intervals in which it runs
 * ({@code component-run}, {@code ok}, with the term's epoch when it started and both clocks),
 * one every 50 milliseconds, and the time its {@code stop()} takes (the configured stop time,
 * as a container finishing its messages) as one last interval with the detail
 * {@value #STOPPING}. What the history says runs is what the component itself saw run, whoever
 * started it.
 */
public class RecordedComponent implements SmartLifecycle {

	/**
	 * The detail of the interval in which the component's {@code stop()} ran.
	 */
	public static final String STOPPING = "stopping";

	private static final long INTERVAL_MILLIS = 50;

	private final String group;

	private final ZkLeadership leadership;

	private final HistoryWriter history;

	private final String process;

	private final Duration stopTime;

	private @Nullable Thread thread;

	private @Nullable CountDownLatch stopping;

	RecordedComponent(String group, ZkLeadership leadership, HistoryWriter history, String process,
			Duration stopTime) {
		this.group = group;
		this.leadership = leadership;
		this.history = history;
		this.process = process;
		this.stopTime = stopTime;
	}

	@Override
	public synchronized void start() {
		if (this.thread != null) {
			return;
		}
		// The epoch of the term this instance holds now, if any: none when something started the
		// component on an instance that does not lead.
		Long epoch = this.leadership.term(this.group).map(LeaderTerm::epoch).orElse(null);
		CountDownLatch stopping = new CountDownLatch(1);
		Thread thread = new Thread(() -> run(epoch, stopping), "component-" + this.group);
		thread.setDaemon(true);
		this.stopping = stopping;
		this.thread = thread;
		thread.start();
	}

	@Override
	public synchronized void stop() {
		Thread thread = this.thread;
		CountDownLatch stopping = this.stopping;
		if (thread == null || stopping == null) {
			return;
		}
		long start = System.currentTimeMillis();
		long startNanos = System.nanoTime();
		stopping.countDown();
		join(thread);
		sleep(this.stopTime.toMillis());
		this.thread = null;
		this.stopping = null;
		this.history.append(Operation.of(this.process, OpKind.COMPONENT_RUN, this.group, start,
				System.currentTimeMillis(), null, Outcome.OK)
			.withNanos(startNanos, System.nanoTime())
			.withDetail(STOPPING));
	}

	@Override
	public synchronized boolean isRunning() {
		return this.thread != null;
	}

	private void run(@Nullable Long epoch, CountDownLatch stopping) {
		long start = System.currentTimeMillis();
		long startNanos = System.nanoTime();
		boolean running = true;
		while (running) {
			try {
				running = !stopping.await(INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				running = false;
			}
			long end = System.currentTimeMillis();
			long endNanos = System.nanoTime();
			this.history.append(Operation.of(this.process, OpKind.COMPONENT_RUN, this.group, start, end, epoch,
					Outcome.OK)
				.withNanos(startNanos, endNanos));
			start = end;
			startNanos = endNanos;
		}
	}

	private static void join(Thread thread) {
		try {
			thread.join(5000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
