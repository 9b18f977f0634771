package dev.zklock.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;
import dev.zklock.ZkLockException;
import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * One asynchronous call's acquisition of its keys, one after the other in the given order,
 * without a thread waiting: each key's grant completes a future, a timer on the engine's
 * scheduler ends the wait, and a cancel of the result withdraws the request. Of the grant, the
 * timer and the cancel, exactly one answers a request: the key's queue decides (see
 * {@code docs/lock-core.md}, "Asynchronous calls"). The result completes on the call's executor,
 * never on a ZooKeeper thread.
 */
final class AsyncAcquisition {

	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private final LockEngine engine;

	private final List<String> keys;

	private final LockMode mode;

	private final Deadline deadline;

	private final Executor executor;

	private final @Nullable String call = NodeOwners.call(null);

	private final List<Hold> holds = new ArrayList<>();

	private final CompletableFuture<@Nullable Acquisition> result = new CompletableFuture<>();

	private volatile @Nullable Step step;

	AsyncAcquisition(LockEngine engine, List<String> keys, LockMode mode, Deadline deadline, Executor executor) {
		this.engine = engine;
		this.keys = keys;
		this.mode = mode;
		this.deadline = deadline;
		this.executor = executor;
	}

	/**
	 * Start asking for the first key.
	 * @return the acquisition, {@code null} if the locks were not all obtained in time (then none
	 * is held); cancel it to withdraw the call
	 */
	CompletableFuture<@Nullable Acquisition> start() {
		this.result.whenComplete((acquisition, ex) -> {
			if (ex instanceof CancellationException) {
				cancelled();
			}
		});
		next();
		return this.result;
	}

	private void next() {
		if (this.result.isCancelled()) {
			releaseHeld();
			return;
		}
		List<Hold> held;
		synchronized (this.holds) {
			held = List.copyOf(this.holds);
		}
		if (held.size() == this.keys.size()) {
			if (held.size() == 1) {
				finish(new Acquisition(held));
				return;
			}
			// A key taken earlier may have been lost while a later one was awaited: the work
			// starts only when every grant is still valid; otherwise all are given back and the
			// keys asked for again, in order, within the wait time.
			Acquisition acquisition = new Acquisition(held);
			acquisition.checkHeldAsync().whenComplete((lost, ex) -> {
				if (lost == null && ex == null) {
					finish(acquisition);
				}
				else {
					releaseHeld();
					if (this.deadline.hasPassed()) {
						endInTime(this.keys.get(0));
					}
					else {
						next();
					}
				}
			});
			return;
		}
		String key = this.keys.get(held.size());
		KeyLock keyLock;
		LocalRequest request;
		do {
			keyLock = this.engine.keyLocks().obtain(key, this.engine.path(key));
			request = new LocalRequest(key, this.mode, this.deadline, null, this.call);
		}
		while (!keyLock.enqueue(request));
		Step current = new Step(keyLock, request);
		this.step = current;
		if (!this.deadline.isForever()) {
			current.schedule(Math.max(this.deadline.remainingNanos(), 1));
		}
		request.result().whenComplete((hold, ex) -> answered(current, hold, ex));
		if (this.result.isCancelled()) {
			cancelled();
		}
	}

	private void answered(Step answered, @Nullable Hold hold, @Nullable Throwable ex) {
		answered.cancelTimer();
		if (ex != null) {
			releaseHeld();
			fail(new ZkLockException("Could not obtain the lock on key '" + answered.request.key() + "': " + ex, ex));
			return;
		}
		if (hold == null) {
			releaseHeld();
			finish(null);
			return;
		}
		if (this.result.isCancelled()) {
			answered.keyLock.release(hold);
			releaseHeld();
			return;
		}
		hold.lock().isValidAsync().whenComplete((valid, failure) -> {
			if (Boolean.TRUE.equals(valid)) {
				synchronized (this.holds) {
					this.holds.add(hold);
				}
				next();
				return;
			}
			// A pause may have outlasted the session, and the server did not confirm the node:
			// give the grant back, and ask again (the key then requests a new node).
			answered.keyLock.release(hold);
			if (this.deadline.hasPassed()) {
				releaseHeld();
				endInTime(answered.request.key());
			}
			else {
				next();
			}
		});
	}

	private void timeCheck(Step waiting) {
		boolean forOthers = waiting.request.isWaitingForOthers();
		long nanos = this.deadline.answerNanos(forOthers);
		if (nanos > 0) {
			waiting.schedule(forOthers ? nanos : Math.min(nanos, POLL_NANOS));
			return;
		}
		if (waiting.keyLock.cancel(waiting.request)) {
			releaseHeld();
			endInTime(waiting.request.key());
		}
	}

	private void cancelled() {
		Step waiting = this.step;
		if (waiting != null && waiting.keyLock.cancel(waiting.request)) {
			waiting.cancelTimer();
			releaseHeld();
		}
	}

	private void endInTime(String key) {
		if (!this.engine.isConnected()) {
			fail(this.engine.unreachable(key, this.deadline));
		}
		else {
			finish(null);
		}
	}

	private void releaseHeld() {
		List<Hold> held;
		synchronized (this.holds) {
			held = new ArrayList<>(this.holds);
			this.holds.clear();
		}
		AsyncRelease.release(held);
	}

	private void finish(@Nullable Acquisition acquisition) {
		onExecutor(() -> {
			if (!this.result.complete(acquisition) && acquisition != null) {
				AsyncRelease.release(acquisition.holds());
			}
		});
	}

	private void fail(Throwable failure) {
		onExecutor(() -> this.result.completeExceptionally(failure));
	}

	private void onExecutor(Runnable task) {
		try {
			this.executor.execute(task);
		}
		catch (RejectedExecutionException ex) {
			task.run();
		}
	}

	/**
	 * The request for one key, with its timer.
	 */
	private final class Step {

		private final KeyLock keyLock;

		private final LocalRequest request;

		private volatile ZooKeeperPort.@Nullable Timer timer;

		Step(KeyLock keyLock, LocalRequest request) {
			this.keyLock = keyLock;
			this.request = request;
		}

		void schedule(long nanos) {
			this.timer = AsyncAcquisition.this.engine.port().schedule(() -> timeCheck(this), nanos);
		}

		void cancelTimer() {
			ZooKeeperPort.Timer current = this.timer;
			if (current != null) {
				current.cancel();
			}
		}

	}

}
