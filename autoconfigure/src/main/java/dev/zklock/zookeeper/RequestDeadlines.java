package dev.zklock.zookeeper;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Bounds the wait of a thread on a synchronous ZooKeeper request: a request of ZooKeeper's
 * client waits for its reply in {@link Object#wait()}, with no deadline of its own, and an
 * interrupt ends that wait. One daemon thread interrupts each waiting thread whose deadline has
 * passed, with a handshake so that no interrupt of this class outlives the wait it was meant for:
 * the waiting thread that ends its wait either stops the interrupt from being sent, or waits for
 * it to land and clears it.
 * <p>
 * The thread sleeps until the earliest deadline it knows of, and a new wait wakes it only when
 * its deadline is earlier: waits of the same length, begun one after the other, wake it once per
 * length, not once per wait. It parks without a deadline when no thread waits, and is started
 * with the first wait.
 */
final class RequestDeadlines {

	private static final int WAITING = 0;

	private static final int ENDED = 1;

	private static final int INTERRUPTING = 2;

	private static final int INTERRUPTED = 3;

	/**
	 * The thread's wake-up time while it looks at the waits: any new wait wakes it again.
	 */
	private static final long LOOKING = Long.MIN_VALUE;

	private static final long NONE = Long.MAX_VALUE;

	private final Set<Wait> waits = ConcurrentHashMap.newKeySet();

	private final LongSupplier clock;

	private final String name;

	private volatile long wakeAt = NONE;

	private volatile @Nullable Thread interrupter;

	private volatile boolean stopped;

	RequestDeadlines(String name, LongSupplier clock) {
		this.name = name;
		this.clock = clock;
	}

	/**
	 * Begin a wait of the calling thread: it is interrupted at the deadline unless it ends the
	 * wait first.
	 * @param deadline on the clock's time
	 * @return the wait, to {@link #end} whatever happens
	 */
	Wait begin(long deadline) {
		Wait wait = new Wait(Thread.currentThread(), deadline);
		this.waits.add(wait);
		long wakeAt = this.wakeAt;
		if (wakeAt == LOOKING || wakeAt == NONE || deadline - wakeAt < 0) {
			LockSupport.unpark(interrupter());
		}
		return wait;
	}

	/**
	 * End a wait, on the thread that began it.
	 * @return whether its deadline interrupted it (the interrupt is then cleared: an interrupt
	 * that came from elsewhere at the same moment is lost with it)
	 */
	boolean end(Wait wait) {
		this.waits.remove(wait);
		if (wait.state.compareAndSet(WAITING, ENDED)) {
			return false;
		}
		while (wait.state.get() != INTERRUPTED) {
			Thread.onSpinWait();
		}
		Thread.interrupted();
		return true;
	}

	private Thread interrupter() {
		Thread thread = this.interrupter;
		if (thread != null) {
			return thread;
		}
		synchronized (this) {
			if (this.interrupter == null) {
				Thread started = new Thread(this::interruptLateWaits, this.name);
				started.setDaemon(true);
				started.start();
				this.interrupter = started;
			}
			return this.interrupter;
		}
	}

	/**
	 * Stop the interrupting thread, once no thread waits (for tests: production keeps one for
	 * the process).
	 * @return the thread, to join, or {@code null} if none was started
	 */
	@Nullable Thread stop() {
		this.stopped = true;
		Thread thread = this.interrupter;
		if (thread != null) {
			LockSupport.unpark(thread);
		}
		return thread;
	}

	private void interruptLateWaits() {
		while (!this.stopped) {
			this.wakeAt = LOOKING;
			long now = this.clock.getAsLong();
			long next = NONE;
			for (Wait wait : this.waits) {
				if (wait.deadline - now <= 0) {
					this.waits.remove(wait);
					if (wait.state.compareAndSet(WAITING, INTERRUPTING)) {
						wait.thread.interrupt();
						wait.state.set(INTERRUPTED);
					}
				}
				else if (next == NONE || wait.deadline - next < 0) {
					next = wait.deadline;
				}
			}
			this.wakeAt = next;
			if (next == NONE) {
				LockSupport.park(this);
			}
			else {
				LockSupport.parkNanos(this, next - this.clock.getAsLong());
			}
		}
	}

	/**
	 * One thread's wait on one request.
	 */
	static final class Wait {

		private final Thread thread;

		private final long deadline;

		private final AtomicInteger state = new AtomicInteger(WAITING);

		private Wait(Thread thread, long deadline) {
			this.thread = thread;
			this.deadline = deadline;
		}

	}

}
