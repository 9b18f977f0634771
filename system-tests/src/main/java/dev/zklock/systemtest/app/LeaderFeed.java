package dev.zklock.systemtest.app;

import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockException;
import dev.zklock.systemtest.history.HistoryWriter;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * The leader-only component of the workload ({@code @ZkLeaderComponent} group {@value #GROUP}),
 * a stand-in for a listener container: while it runs, it logs every 50 milliseconds the
 * interval it has run since the last one ({@code component-run}), with the term's epoch, up to
 * its stop. An interval longer than a second (the process was frozen) at whose end this instance
 * no longer leads under that epoch is logged as {@code lock-lost}, and so are the intervals that
 * end within two seconds of such a wake while it does not lead (the component runs on until zklock
 * stops it). A kill loses at most the last 50 milliseconds.
 */
public class LeaderFeed implements SmartLifecycle {

	static final String GROUP = "feed";

	private static final long INTERVAL_MILLIS = 50;

	private static final long FROZEN_MILLIS = 1000;

	/**
	 * How long after the wake from a pause the component may run on without leading, until
	 * zklock stops it.
	 */
	private static final long WAKE_MILLIS = 2000;

	private final ZkLeadership leadership;

	private final HistoryWriter history;

	private final String process;

	private volatile @Nullable Thread thread;

	private volatile CountDownLatch stopping = new CountDownLatch(0);

	LeaderFeed(ZkLeadership leadership, HistoryWriter history, String process) {
		this.leadership = leadership;
		this.history = history;
		this.process = process;
	}

	@Override
	public synchronized void start() {
		if (this.thread != null) {
			return;
		}
		long epoch = epoch();
		CountDownLatch stopping = new CountDownLatch(1);
		this.stopping = stopping;
		Thread thread = new Thread(() -> run(epoch, stopping), "leader-feed");
		thread.setDaemon(true);
		this.thread = thread;
		thread.start();
	}

	@Override
	public void stop() {
		Thread thread;
		synchronized (this) {
			thread = this.thread;
			this.thread = null;
		}
		if (thread != null) {
			// Not an interrupt: it would close the history file's channel under a write.
			this.stopping.countDown();
			try {
				thread.join(5000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.thread != null;
	}

	private void run(long epoch, CountDownLatch stopping) {
		long start = System.currentTimeMillis();
		long startNanos = System.nanoTime();
		long wokeAt = Long.MIN_VALUE / 2;
		boolean running = true;
		while (running) {
			try {
				running = !stopping.await(INTERVAL_MILLIS, TimeUnit.MILLISECONDS); // Stopped: log the last.
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				running = false;
			}
			long end = System.currentTimeMillis();
			long endNanos = System.nanoTime();
			// One long interval means that the process was frozen (a pause): the checker excuses it
			// if the leadership ended meanwhile, as no library can stop a frozen process. Nor can it
			// stop the component at the instant of the wake: the runs that end within WAKE_MILLIS of
			// it, while this instance no longer leads under the epoch, are excused too (their work
			// would be fenced by the epoch). Every other run counts as ok, so a library that does
			// not stop its components when it stops leading is caught.
			boolean valid = this.leadership.isLeader(GROUP) && epoch() == epoch;
			boolean frozen = end - start > FROZEN_MILLIS;
			if (frozen && !valid) {
				wokeAt = end;
			}
			boolean waking = !frozen && !valid && end - wokeAt <= WAKE_MILLIS;
			boolean excused = (frozen && !valid) || waking;
			Operation run = Operation.of(this.process, OpKind.COMPONENT_RUN, GROUP, start, end, epoch,
					excused ? Outcome.LOCK_LOST : Outcome.OK)
				.withNanos(startNanos, endNanos);
			this.history.append(!excused ? run : run.withDetail(frozen ? "frozen while the leadership ended"
					: "ran on after a pause, until stopped, while the leadership had ended"));
			start = end;
			startNanos = endNanos;
		}
	}

	private long epoch() {
		try {
			OptionalLong epoch = this.leadership.epoch(GROUP);
			return epoch.orElse(-1);
		}
		catch (ZkLockException ex) {
			return -1;
		}
	}

}
