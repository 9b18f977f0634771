package dev.zklock.lock;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;

/**
 * Notices process pauses (a long GC, SIGSTOP, a frozen VM) with a heartbeat thread on the
 * monotonic clock, as HBase's JvmPauseMonitor does: when the thread wakes much later than it
 * asked to, the whole process was most likely stopped, and a ZooKeeper session may have expired
 * meanwhile without the client having noticed yet. Internal: shared by the lock engine and the
 * leadership.
 */
public final class PauseMonitor implements Pauses, AutoCloseable {

	private static final Log logger = LogFactory.getLog(PauseMonitor.class);

	private static final long MIN_THRESHOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

	private final LongSupplier sessionTimeoutMillis;

	private final long intervalNanos;

	private final Thread thread;

	private volatile long lastBeat = System.nanoTime();

	private volatile long lastPauseDetected = Long.MIN_VALUE;

	private volatile boolean running = true;

	/**
	 * Create and start a monitor for the sessions of the given client: pauses longer than a
	 * tenth of its negotiated session timeout count (10 s is assumed until it has connected).
	 * @param client the client
	 * @return the started monitor
	 */
	public static PauseMonitor forClient(CuratorFramework client) {
		return new PauseMonitor(() -> {
			int negotiated = client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
			return (negotiated > 0) ? negotiated : 10_000;
		});
	}

	/**
	 * Create and start a monitor.
	 * @param sessionTimeoutMillis the current session timeout; pauses longer than a tenth of it
	 * count
	 */
	public PauseMonitor(LongSupplier sessionTimeoutMillis) {
		this.sessionTimeoutMillis = sessionTimeoutMillis;
		this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(50);
		this.thread = new Thread(this::beat, "zklock-pause-monitor");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * Return whether the process may have paused for longer than the threshold since the given
	 * instant, or may be just waking from such a pause now.
	 * @param since a {@link System#nanoTime()} instant
	 * @return whether a pause may have happened
	 */
	@Override
	public boolean mayHavePausedSince(long since) {
		long now = System.nanoTime();
		return (now - this.lastBeat > threshold()) || (this.lastPauseDetected - since >= 0
				&& this.lastPauseDetected != Long.MIN_VALUE);
	}

	/**
	 * Record a pause now, as the heartbeat does when it wakes late; for tests that cannot stop
	 * the process at the right moment.
	 */
	void pauseDetected() {
		this.lastPauseDetected = System.nanoTime();
	}

	long threshold() {
		long timeout = TimeUnit.MILLISECONDS.toNanos(this.sessionTimeoutMillis.getAsLong());
		return Math.max(MIN_THRESHOLD_NANOS, Math.max(timeout / 10, 3 * this.intervalNanos));
	}

	private void beat() {
		while (this.running) {
			try {
				TimeUnit.NANOSECONDS.sleep(this.intervalNanos);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			long now = System.nanoTime();
			long gap = now - this.lastBeat;
			if (gap > threshold()) {
				this.lastPauseDetected = now;
				if (logger.isWarnEnabled()) {
					logger.warn("The process paused for about " + TimeUnit.NANOSECONDS.toMillis(gap - this.intervalNanos)
							+ "ms; held locks will be confirmed with ZooKeeper before they are trusted again");
				}
			}
			this.lastBeat = now;
		}
	}

	@Override
	public void close() {
		this.running = false;
		this.thread.interrupt();
	}

}
