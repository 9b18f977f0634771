package dev.zklock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import dev.zklock.lock.Acquisition;
import dev.zklock.lock.AcquisitionOutcome;
import dev.zklock.lock.HeldLockInfo;
import dev.zklock.lock.KeptLockInfo;
import dev.zklock.lock.LockCounts;
import dev.zklock.lock.LockCall;
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockEngine;
import dev.zklock.lock.LockSettings;
import dev.zklock.lock.LongHold;
import dev.zklock.lock.NodeOwner;
import dev.zklock.lock.NodeOwners;
import dev.zklock.lock.LockKeys;
import dev.zklock.lock.ThreadHolds;
import dev.zklock.lock.WaitingCallInfo;
import dev.zklock.support.CallContext;

/**
 * Runs code while holding ZooKeeper locks: the programmatic form of {@code @ZkLocked}, with the
 * same semantics.
 * <ul>
 * <li>EXCLUSIVE excludes every other holder of the key; SHARED holders run together, never beside
 * an exclusive one. Waiters are served first come, first served.
 * <li>Reentrant per thread: a thread holding a key may lock it again (EXCLUSIVE or SHARED inside
 * EXCLUSIVE, SHARED inside SHARED); SHARED to EXCLUSIVE fails at once instead of deadlocking.
 * <li>Several keys are locked in one global order (sorted, without duplicates) and released in
 * reverse order, so calls on overlapping sets cannot deadlock.
 * <li>If a lock is lost or in doubt when the callback returns, the call ends with
 * {@link LockLostException} and the result is discarded. The callback's own exceptions reach the
 * caller unchanged. The lock is released in every case.
 * </ul>
 * Wait times: {@code null} means the default, {@link Duration#ZERO} do not wait, a negative
 * duration wait forever. A call waiting while ZooKeeper is unreachable ends with a
 * {@link ZkLockException} that says so, no later than its wait time.
 *
 * @since 0.1.0
 */
public class ZkLockTemplate implements AutoCloseable {

	private final LockEngine engine;

	private final Duration defaultWaitTime;

	private final LockCallListener listener;

	private volatile @Nullable Executor asyncExecutor;

	private volatile @Nullable ExecutorService ownExecutor;

	/**
	 * Create a template.
	 * @param client the started client
	 * @param basePath the path under which each key gets its node
	 * @param defaultWaitTime the wait time used when a call names none
	 * @param interruptOnLost whether to interrupt a holder's thread when its lock is lost with
	 * the session
	 */
	public ZkLockTemplate(CuratorFramework client, String basePath, Duration defaultWaitTime, boolean interruptOnLost) {
		this(client, basePath, defaultWaitTime, interruptOnLost, LockCallListener.NONE);
	}

	/**
	 * Create a template whose calls and lost locks a listener follows, for metrics and traces.
	 * @param client the started client
	 * @param basePath the path under which each key gets its node
	 * @param defaultWaitTime the wait time used when a call names none
	 * @param interruptOnLost whether to interrupt a holder's thread when its lock is lost with
	 * the session
	 * @param listener told of every call and every lock lost
	 */
	public ZkLockTemplate(CuratorFramework client, String basePath, Duration defaultWaitTime, boolean interruptOnLost,
			LockCallListener listener) {
		this(client, basePath, defaultWaitTime, interruptOnLost, listener, LockSettings.DEFAULTS);
	}

	/**
	 * Create a template with the given way of sharing lock nodes among the calls of this
	 * instance.
	 * @param client the started client
	 * @param basePath the path under which each key gets its node
	 * @param defaultWaitTime the wait time used when a call names none
	 * @param interruptOnLost whether to interrupt a holder's thread when its lock is lost with
	 * the session
	 * @param listener told of every call and every lock lost
	 * @param settings local handoff and kept locks ({@link LockSettings#PER_CALL} for a node per
	 * call)
	 */
	public ZkLockTemplate(CuratorFramework client, String basePath, Duration defaultWaitTime, boolean interruptOnLost,
			LockCallListener listener, LockSettings settings) {
		this.engine = new LockEngine(client, basePath, interruptOnLost, listener, settings);
		this.defaultWaitTime = defaultWaitTime;
		this.listener = listener;
	}

	/**
	 * Return the participant id that this instance's lock nodes name in their data.
	 * @return the participant id
	 * @since 0.2.0
	 */
	public String getParticipantId() {
		return this.engine.participantId();
	}

	/**
	 * Name this instance in the data of the lock nodes it creates ({@link NodeOwner}): by default
	 * {@code application@<host>:<pid>}; the auto-configuration gives the participant id of
	 * leader election.
	 * @param participantId the participant id
	 * @since 0.2.0
	 */
	public void setParticipantId(String participantId) {
		this.engine.setParticipantId(participantId);
	}

	/**
	 * Lose the lock nodes of this instance that an operator released from another instance
	 * ({@code DELETE /actuator/zklockcluster/{key}}), as on a lost session: each holder's
	 * {@link HeldLock#isValid()} turns false, its call ends with {@link LockLostException}, the
	 * lost-lock listener is told, and its thread is interrupted with
	 * {@code zklock.lock.interrupt-on-lost}; the key's waiting calls ask for a new node.
	 * @param nodePaths the released nodes' full paths
	 * @param sessionId the session that owned them: nodes of another session are not touched
	 * @param why what the holders are told
	 * @return how many of the nodes this instance held
	 * @since 0.2.0
	 */
	public int loseReleased(Collection<String> nodePaths, long sessionId, String why) {
		return this.engine.loseReleased(nodePaths, sessionId, why);
	}

	/**
	 * Return this instance's ZooKeeper session id, 0 when it has none.
	 * @return the session id
	 * @since 0.2.0
	 */
	public long sessionId() {
		return this.engine.sessionId();
	}

	/**
	 * Return the wait time used when a call names none.
	 * @return the default wait time
	 */
	public Duration getDefaultWaitTime() {
		return this.defaultWaitTime;
	}

	/**
	 * Run the callback holding the key's lock exclusively, waiting up to the default wait time.
	 * @param key the key
	 * @param callback the work
	 * @return the callback's result
	 * @throws LockTimeoutException if the lock was not obtained in time
	 * @throws E the callback's own exception
	 */
	public <T, E extends Throwable> T execute(String key, LockCallback<T, E> callback) throws E {
		return execute(key, LockMode.EXCLUSIVE, null, callback);
	}

	/**
	 * Run the callback holding the key's lock.
	 * @param key the key
	 * @param mode the mode
	 * @param waitTime how long to wait; {@code null} for the default
	 * @param callback the work
	 * @return the callback's result
	 * @throws LockTimeoutException if the lock was not obtained in time
	 * @throws E the callback's own exception
	 */
	public <T, E extends Throwable> T execute(String key, LockMode mode, @Nullable Duration waitTime,
			LockCallback<T, E> callback) throws E {
		return execute(List.of(key), mode, waitTime, callback);
	}

	/**
	 * Run the callback holding the locks of every key.
	 * @param keys the keys
	 * @param mode the mode
	 * @param waitTime how long to wait for all of them; {@code null} for the default
	 * @param callback the work
	 * @return the callback's result
	 * @throws LockTimeoutException if the locks were not obtained in time
	 * @throws E the callback's own exception
	 */
	public <T, E extends Throwable> T execute(Collection<String> keys, LockMode mode, @Nullable Duration waitTime,
			LockCallback<T, E> callback) throws E {
		Duration wait = effective(waitTime);
		return executeOrElse(keys, mode, wait, callback, () -> {
			throw timeout(keys, wait);
		});
	}

	/**
	 * Run the callback holding the key's lock if it can be obtained in time.
	 * @param key the key
	 * @param mode the mode
	 * @param waitTime how long to wait; {@code null} for the default
	 * @param callback the work
	 * @return the callback's result, or empty if the lock was not obtained in time (or the
	 * callback returned {@code null})
	 * @throws E the callback's own exception
	 */
	public <T, E extends Throwable> Optional<T> tryExecute(String key, LockMode mode, @Nullable Duration waitTime,
			LockCallback<T, E> callback) throws E {
		return executeOrElse(List.of(key), mode, waitTime, (lock) -> Optional.ofNullable(callback.doWithLock(lock)),
				Optional::empty);
	}

	/**
	 * Run the callback holding the locks of every key, or return what {@code onTimeout}
	 * supplies when they are not obtained in time.
	 * @param keys the keys
	 * @param mode the mode
	 * @param waitTime how long to wait for all of them; {@code null} for the default
	 * @param callback the work
	 * @param onTimeout supplies the result when the locks were not obtained in time (the call
	 * counts as skipped), or throws (the call counts as timed out)
	 * @return the callback's result, or {@code onTimeout}'s
	 * @throws E the callback's own exception
	 */
	public <T, E extends Throwable> T executeOrElse(Collection<String> keys, LockMode mode, @Nullable Duration waitTime,
			LockCallback<T, E> callback, Supplier<T> onTimeout) throws E {
		return executeOrElse(null, keys, mode, waitTime, callback, onTimeout);
	}

	/**
	 * Run the callback holding the locks of every key, or return what {@code onTimeout}
	 * supplies when they are not obtained in time, naming the call for metrics and traces.
	 * @param name what the call locks as the code names it, from a small fixed set (the
	 * {@code key} tag of the lock metrics when {@code zklock.metrics.key-tag=expression});
	 * {@code null} for none
	 * @param keys the keys
	 * @param mode the mode
	 * @param waitTime how long to wait for all of them; {@code null} for the default
	 * @param callback the work
	 * @param onTimeout supplies the result when the locks were not obtained in time (the call
	 * counts as skipped), or throws (the call counts as timed out)
	 * @return the callback's result, or {@code onTimeout}'s
	 * @throws E the callback's own exception
	 */
	public <T, E extends Throwable> T executeOrElse(@Nullable String name, Collection<String> keys, LockMode mode,
			@Nullable Duration waitTime, LockCallback<T, E> callback, Supplier<T> onTimeout) throws E {
		List<String> ordered = LockKeys.ordered(keys);
		LockCall call = this.listener.callStarted(name, ordered, mode);
		Acquisition acquisition = acquire(name, ordered, mode, waitTime, call);
		if (acquisition == null) {
			return notAcquired(onTimeout, call);
		}
		Throwable failure = null;
		CallContext.Scope scope = CallContext.Scope.ofLocks(locks(ordered, acquisition));
		@Nullable CallContext outer = CallContext.enter(scope);
		try {
			call.acquired(acquisition.innermost());
			T result = callback.doWithLock(acquisition.innermost());
			acquisition.ensureHeld();
			return result;
		}
		catch (Throwable ex) {
			failure = ex;
			throw ex;
		}
		finally {
			// Ended before the release: a context captured during the call never shows a released lock.
			scope.end();
			CallContext.set(outer);
			this.engine.release(acquisition);
			call.ended(failure);
		}
	}

	/**
	 * Return the locks of a blocking call, in the order it took them.
	 */
	private static List<HeldLock> locks(List<String> ordered, Acquisition acquisition) {
		if (ordered.size() == 1) {
			return List.of(acquisition.innermost());
		}
		List<HeldLock> locks = new ArrayList<>(ordered.size());
		for (String key : ordered) {
			HeldLock lock = ThreadHolds.get(key);
			locks.add((lock != null) ? lock : acquisition.innermost());
		}
		return locks;
	}

	/**
	 * Run asynchronous work holding the key's lock exclusively, waiting up to the default wait
	 * time; no thread waits for the lock.
	 * @param key the key
	 * @param callback starts the work, on the template's executor once the lock is held
	 * @return the work's result, on the template's executor once the lock is released; completed
	 * with {@link LockTimeoutException} if the lock was not obtained in time
	 * @see #executeOrElseAsync(String, Collection, LockMode, Duration, AsyncLockCallback, Supplier)
	 */
	public <T> CompletableFuture<T> executeAsync(String key, AsyncLockCallback<T> callback) {
		return executeAsync(List.of(key), LockMode.EXCLUSIVE, null, callback);
	}

	/**
	 * Run asynchronous work holding the locks of every key; no thread waits for them.
	 * @param keys the keys
	 * @param mode the mode
	 * @param waitTime how long to wait for all of them; {@code null} for the default
	 * @param callback starts the work, on the template's executor once the locks are held
	 * @return the work's result, on the template's executor once the locks are released; completed
	 * with {@link LockTimeoutException} if the locks were not obtained in time
	 * @see #executeOrElseAsync(String, Collection, LockMode, Duration, AsyncLockCallback, Supplier)
	 */
	public <T> CompletableFuture<T> executeAsync(Collection<String> keys, LockMode mode, @Nullable Duration waitTime,
			AsyncLockCallback<T> callback) {
		return executeOrElseAsync(null, keys, mode, waitTime, callback,
				() -> CompletableFuture.failedFuture(timeout(keys, waitTime)));
	}

	/**
	 * Run asynchronous work holding the locks of every key, or return what {@code onTimeout}
	 * supplies when they are not obtained in time. The semantics of
	 * {@link #executeOrElse(String, Collection, LockMode, Duration, LockCallback, Supplier)}, with
	 * these differences:
	 * <ul>
	 * <li>No thread waits: the call returns at once, and its locks belong to the work, not to a
	 * thread. The work may continue on any thread. {@link ZkLockContext} sees the lock (the
	 * innermost, the callback's {@link HeldLock}) while the callback runs, and in later stages of
	 * the work where the context is propagated ({@link ZkLockThreadLocalAccessor}), until the
	 * release. Not reentrant: the call waits for locks its own thread holds, like a call of
	 * another thread would.
	 * <li>The callback runs on the template's executor ({@link #setAsyncExecutor}), never on a
	 * ZooKeeper thread, and the returned future completes there too.
	 * <li>The locks are released when the work's stage completes, normally or exceptionally;
	 * the returned future completes after the release, with the work's result or failure, or with
	 * {@link LockLostException} if a lock was lost or in doubt when the work ended.
	 * <li>Cancelling the returned future withdraws a call that waits, and cancels the work's
	 * future (when it is a {@link java.util.concurrent.Future}) of a call that runs; the locks are
	 * released when the work has ended.
	 * </ul>
	 * @param name what the call locks as the code names it, for metrics and traces; {@code null}
	 * for none
	 * @param keys the keys
	 * @param mode the mode
	 * @param waitTime how long to wait for all of them; {@code null} for the default
	 * @param callback starts the work
	 * @param onTimeout supplies the result when the locks were not obtained in time: a stage that
	 * completes normally (the call counts as skipped) or exceptionally (timed out)
	 * @return the work's result, or {@code onTimeout}'s
	 */
	public <T> CompletableFuture<T> executeOrElseAsync(@Nullable String name, Collection<String> keys, LockMode mode,
			@Nullable Duration waitTime, AsyncLockCallback<T> callback,
			Supplier<? extends CompletionStage<T>> onTimeout) {
		CompletableFuture<T> result = new CompletableFuture<>();
		CompletableFuture<LockLease> leasing = lease(name, keys, mode, waitTime);
		result.whenComplete((value, ex) -> {
			if (result.isCancelled()) {
				leasing.cancel(false);
			}
		});
		// Async: the lease may be complete already, and its continuation must not run on the
		// caller's thread (nor ever on a ZooKeeper thread).
		leasing.whenCompleteAsync((lease, failure) -> {
			if (failure != null) {
				result.completeExceptionally(LockLease.unwrap(failure));
			}
			else if (!lease.isHeld()) {
				CompletionStage<T> fallback;
				try {
					fallback = onTimeout.get();
				}
				catch (RuntimeException ex) {
					fallback = CompletableFuture.failedFuture(ex);
				}
				fallback.whenComplete((value, ex) -> {
					lease.notHeld(ex);
					complete(result, value, ex);
				});
			}
			else {
				run(lease, callback, result);
			}
		}, asyncExecutor());
		return result;
	}

	/**
	 * Acquire the key's lock for a holder that releases it itself ({@link ReleasableLock#release()})
	 * rather than for a callback, waiting on this thread: for code written against another
	 * library's lock interface. The lock belongs to no thread and is not reentrant (see
	 * {@link ReleasableLock}).
	 * @param key the key
	 * @param mode the mode
	 * @param waitTime how long to wait; {@code null} for the default
	 * @return the lock, or {@code null} if it was not obtained in time
	 * @throws InterruptedException if the thread was interrupted while waiting (the request is
	 * withdrawn; nothing is held)
	 * @throws ZkLockException if ZooKeeper was unreachable
	 * @since 0.2.0
	 */
	public @Nullable ReleasableLock acquire(String key, LockMode mode, @Nullable Duration waitTime)
			throws InterruptedException {
		CompletableFuture<@Nullable ReleasableLock> acquiring = acquireAsync(key, mode, waitTime);
		try {
			return acquiring.get();
		}
		catch (InterruptedException ex) {
			acquiring.cancel(false);
			throw ex;
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			throw (cause instanceof RuntimeException runtime) ? runtime
					: new ZkLockException("Could not obtain the lock on key '" + key + "': " + cause, cause);
		}
	}

	/**
	 * Acquire the key's lock for a holder that releases it itself ({@link ReleasableLock#release()}),
	 * without a thread waiting.
	 * @param key the key
	 * @param mode the mode
	 * @param waitTime how long to wait; {@code null} for the default
	 * @return completed with the lock, or with {@code null} if it was not obtained in time;
	 * completed exceptionally if ZooKeeper was unreachable; cancelling it withdraws the request
	 * (a lock granted meanwhile is released)
	 * @since 0.2.0
	 */
	public CompletableFuture<@Nullable ReleasableLock> acquireAsync(String key, LockMode mode,
			@Nullable Duration waitTime) {
		CompletableFuture<@Nullable ReleasableLock> result = new CompletableFuture<>();
		CompletableFuture<LockLease> leasing = lease(null, List.of(key), mode, waitTime);
		leasing.whenComplete((lease, failure) -> {
			if (failure != null) {
				result.completeExceptionally(LockLease.unwrap(failure));
			}
			else if (!lease.isHeld()) {
				lease.notHeld(null);
				result.complete(null);
			}
			else if (lease.take()) {
				lease.call().acquired(lease.lock());
				lease.call().detached();
				ReleasableLock lock = new ReleasableLock(lease);
				if (!result.complete(lock)) {
					lock.release();
				}
			}
		});
		result.whenComplete((lock, ex) -> {
			if (result.isCancelled() && !leasing.cancel(false)) {
				leasing.thenAccept(LockLease::drop);
			}
		});
		return result;
	}

	/**
	 * Set the executor that runs the work of asynchronous calls once their locks are held, and
	 * completes their futures. By default, a pool of daemon threads of the template's own, shut
	 * down with it.
	 * @param executor the executor
	 */
	public void setAsyncExecutor(Executor executor) {
		this.asyncExecutor = new SafeExecutor(executor);
	}

	/**
	 * Acquire the locks of an asynchronous call.
	 * @return the lease, on the template's executor, holding the locks or telling that they were
	 * not obtained in time; completed exceptionally if the acquisition failed (ZooKeeper
	 * unreachable)
	 */
	CompletableFuture<LockLease> lease(@Nullable String name, Collection<String> keys, LockMode mode,
			@Nullable Duration waitTime) {
		List<String> ordered = LockKeys.ordered(keys);
		LockCall call = this.listener.callStarted(name, ordered, mode);
		Executor executor = asyncExecutor();
		CompletableFuture<@Nullable Acquisition> acquiring;
		@Nullable String label = NodeOwners.take(name);
		@Nullable String outer = (label != null) ? NodeOwners.callingAs(label) : null;
		try {
			acquiring = this.engine.acquireAsync(ordered, mode, effective(waitTime), executor);
		}
		catch (RuntimeException ex) {
			call.notAcquired(AcquisitionOutcome.ERROR, ex);
			return CompletableFuture.failedFuture(ex);
		}
		finally {
			if (label != null) {
				NodeOwners.restore(outer);
			}
		}
		CompletableFuture<LockLease> lease = acquiring.handle((acquisition, failure) -> {
			if (failure != null) {
				Throwable cause = LockLease.unwrap(failure);
				call.notAcquired(AcquisitionOutcome.ERROR, cause);
				throw (cause instanceof RuntimeException runtime) ? runtime : new ZkLockException(cause.toString(), cause);
			}
			return new LockLease(this.engine, acquisition, call, executor);
		});
		lease.whenComplete((value, ex) -> {
			if (lease.isCancelled()) {
				withdraw(acquiring);
			}
		});
		return lease;
	}

	/**
	 * Withdraw the acquisition of a call whose lease was cancelled before it was made. The
	 * cancel withdraws a request that still waits; a grant that completed the acquisition first
	 * (between the lease's cancel and this one, or before the lease was made of it) is released
	 * here, since no lease will end it.
	 */
	private void withdraw(CompletableFuture<@Nullable Acquisition> acquiring) {
		acquiring.cancel(false);
		acquiring.thenAccept((acquisition) -> {
			if (acquisition != null) {
				this.engine.releaseAsync(acquisition);
			}
		});
	}

	Executor asyncExecutor() {
		Executor executor = this.asyncExecutor;
		if (executor == null) {
			synchronized (this) {
				executor = this.asyncExecutor;
				if (executor == null) {
					this.ownExecutor = AsyncThreads.newPool();
					executor = new SafeExecutor(this.ownExecutor);
					this.asyncExecutor = executor;
				}
			}
		}
		return executor;
	}

	private <T> void run(LockLease lease, AsyncLockCallback<T> callback, CompletableFuture<T> result) {
		CompletionStage<T> work;
		@Nullable CallContext outer = CallContext.current();
		try {
			lease.call().acquired(lease.lock());
			CallContext.enter(lease.scope());
			work = callback.doWithLock(lease.lock());
			if (work == null) {
				work = CompletableFuture.completedFuture(null);
			}
		}
		catch (Throwable ex) {
			work = CompletableFuture.failedFuture(ex);
		}
		finally {
			CallContext.set(outer);
			lease.call().detached();
		}
		CompletionStage<T> started = work;
		result.whenComplete((value, ex) -> {
			if (result.isCancelled() && started instanceof Future<?> future) {
				future.cancel(true);
			}
		});
		started.whenComplete((value, failure) -> lease.end(failure, (end) -> complete(result, value, end)));
	}

	private static <T> void complete(CompletableFuture<T> result, @Nullable T value, @Nullable Throwable failure) {
		if (failure != null) {
			result.completeExceptionally(LockLease.unwrap(failure));
		}
		else {
			result.complete(value);
		}
	}

	/**
	 * Return the locks this process holds now.
	 * @return the held locks
	 */
	public List<HeldLockInfo> heldLocks() {
		return this.engine.heldLocks();
	}

	/**
	 * Return the locks held since before a given instant, oldest first, with each blocking
	 * holder's stack.
	 * @param before the instant
	 * @return the holds
	 * @since 0.2.0
	 */
	public List<LongHold> holdsSince(Instant before) {
		return this.engine.holdsSince(before, true);
	}

	/**
	 * Return the locks held since before a given instant, oldest first, without reading the
	 * holders' stacks (each {@link LongHold#stack()} is empty).
	 * @param before the instant
	 * @return the holds
	 * @since 0.2.0
	 */
	public List<LongHold> holdsSinceWithoutStacks(Instant before) {
		return this.engine.holdsSince(before, false);
	}

	/**
	 * Return the locks this instance keeps with no call holding them
	 * ({@code zklock.lock.keep.idle-time}).
	 * @return the kept locks
	 */
	public List<KeptLockInfo> keptLocks() {
		return this.engine.keptLocks();
	}

	/**
	 * Return the keys this instance holds or keeps and has seen another instance wait for.
	 * This instance looks for other waiters only while it could go on granting the key to its
	 * own calls (calls of its own queued for the key, shared calls overlapping, or the lock
	 * kept): a key held by one call alone is not listed, however many instances wait for it.
	 * @return the keys
	 */
	public List<String> keysOthersWaitFor() {
		return this.engine.keysOthersWaitFor();
	}

	/**
	 * Return what local handoff and kept locks saved since this template started.
	 * @return the counts
	 */
	public LockCounts lockCounts() {
		return this.engine.counts();
	}

	/**
	 * Return the calls of this process waiting for a lock now.
	 * @return the waiting calls
	 */
	public List<WaitingCallInfo> waitingCalls() {
		return this.engine.waitingCalls();
	}

	@Override
	public void close() {
		this.engine.close();
		ExecutorService own = this.ownExecutor;
		if (own != null) {
			own.shutdown();
		}
	}

	private @Nullable Acquisition acquire(@Nullable String name, List<String> ordered, LockMode mode,
			@Nullable Duration waitTime, LockCall call) {
		@Nullable String label = NodeOwners.take(name);
		@Nullable String outer = (label != null) ? NodeOwners.callingAs(label) : null;
		try {
			return this.engine.acquire(ordered, mode, effective(waitTime));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			ZkLockException failure = new ZkLockException(
					"Interrupted while waiting for the lock on key " + describe(ordered), ex);
			call.notAcquired(AcquisitionOutcome.ERROR, failure);
			throw failure;
		}
		catch (RuntimeException | Error ex) {
			call.notAcquired(AcquisitionOutcome.ERROR, ex);
			throw ex;
		}
		finally {
			if (label != null) {
				NodeOwners.restore(outer);
			}
		}
	}

	private static <T> T notAcquired(Supplier<T> onTimeout, LockCall call) {
		T fallback;
		try {
			fallback = onTimeout.get();
		}
		catch (RuntimeException | Error ex) {
			call.notAcquired(AcquisitionOutcome.TIMEOUT, ex);
			throw ex;
		}
		call.notAcquired(AcquisitionOutcome.SKIPPED, null);
		return fallback;
	}

	/**
	 * Return the exception of a call whose locks were not obtained in time.
	 */
	LockTimeoutException timeout(Collection<String> keys, @Nullable Duration waitTime) {
		return new LockTimeoutException(describe(keys), effective(waitTime));
	}

	private Duration effective(@Nullable Duration waitTime) {
		return (waitTime != null) ? waitTime : this.defaultWaitTime;
	}

	private static String describe(Collection<String> keys) {
		return (keys.size() == 1) ? keys.iterator().next() : keys.toString();
	}

}
