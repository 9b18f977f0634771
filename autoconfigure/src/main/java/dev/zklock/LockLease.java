package dev.zklock;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import dev.zklock.lock.Acquisition;
import dev.zklock.lock.AcquisitionOutcome;
import dev.zklock.lock.LockCall;
import dev.zklock.lock.LockEngine;
import dev.zklock.support.CallContext;

/**
 * The locks an asynchronous call holds, from its grant to the end of its work: the end checks that
 * they were held throughout, releases them, and tells the call's listener.
 * <p>
 * A lease handed on through code that may lose it (a reactive subscription, which discards a
 * value that arrives after a cancel) is either {@linkplain #take() taken} by the call's work or
 * {@linkplain #drop() dropped} by the cancel, never both: the work's end, or the drop, releases
 * the locks.
 */
final class LockLease {

	private static final int OPEN = 0;

	private static final int TAKEN = 1;

	private static final int DROPPED = 2;

	private final LockEngine engine;

	private final @Nullable Acquisition acquisition;

	private final LockCall call;

	private final Executor executor;

	private final CallContext.@Nullable Scope scope;

	private volatile boolean checked;

	private final AtomicInteger state = new AtomicInteger(OPEN);

	/**
	 * Create a lease.
	 * @param acquisition the locks, {@code null} if they were not obtained in time
	 */
	LockLease(LockEngine engine, @Nullable Acquisition acquisition, LockCall call, Executor executor) {
		this.engine = engine;
		this.acquisition = acquisition;
		this.call = call;
		this.executor = executor;
		this.scope = (acquisition != null) ? CallContext.Scope.ofLocks(List.of(acquisition.innermost())) : null;
	}

	/**
	 * Return whether the locks were obtained.
	 */
	boolean isHeld() {
		return this.acquisition != null;
	}

	/**
	 * Tell the listener that the call does not run, the locks not obtained in time.
	 * @param error what the call ends with, if it fails (it timed out), else {@code null} (it
	 * was skipped)
	 */
	void notHeld(@Nullable Throwable error) {
		this.call.notAcquired((error != null) ? AcquisitionOutcome.TIMEOUT : AcquisitionOutcome.SKIPPED,
				(error != null) ? unwrap(error) : null);
	}

	/**
	 * Take the lease for the call's work (or its fallback, when the locks were not obtained): from
	 * now on the work's end releases the locks.
	 * @return {@code false} if the lease was dropped first, the call cancelled before its work
	 * began: the work must not run
	 */
	boolean take() {
		return this.state.compareAndSet(OPEN, TAKEN);
	}

	/**
	 * Return whether the call's work took the lease.
	 */
	boolean isTaken() {
		return this.state.get() == TAKEN;
	}

	/**
	 * Drop the lease of a call cancelled before its work took it: its locks are released now,
	 * since no work will end them. Does nothing to a lease taken.
	 */
	void drop() {
		Acquisition held = this.acquisition;
		if (this.state.compareAndSet(OPEN, DROPPED) && held != null) {
			scope().end();
			this.engine.releaseAsync(held);
		}
	}

	HeldLock lock() {
		return held().innermost();
	}

	LockCall call() {
		return this.call;
	}

	/**
	 * Return the call as its work's context sees it; it ends as the call begins to release its
	 * locks.
	 */
	CallContext.Scope scope() {
		CallContext.Scope scope = this.scope;
		if (scope == null) {
			throw new IllegalStateException("The locks were not obtained");
		}
		return scope;
	}

	/**
	 * End the call: release its locks once its work ended.
	 * @param failure how the work failed, {@code null} if it did not
	 * @return completed on the template's executor once the locks are released: normally if the
	 * work succeeded and its locks were held throughout, else with the work's failure or a
	 * {@link LockLostException}
	 */
	CompletableFuture<@Nullable Void> end(@Nullable Throwable failure) {
		CompletableFuture<@Nullable Void> ended = new CompletableFuture<>();
		end(failure, (end) -> {
			if (end != null) {
				ended.completeExceptionally(end);
			}
			else {
				ended.complete(null);
			}
		});
		return ended;
	}

	/**
	 * End the call: release its locks once its work ended, then, on the template's executor, hand
	 * on how the call ends.
	 * @param failure how the work failed, {@code null} if it did not
	 * @param then given the work's failure, a {@link LockLostException}, or {@code null} if the
	 * work succeeded and its locks were held throughout
	 */
	void end(@Nullable Throwable failure, Consumer<@Nullable Throwable> then) {
		scope().end();
		CompletableFuture<@Nullable RuntimeException> finished = (failure != null || this.checked)
				? this.engine.releaseAsync(held()).thenApply((released) -> null) : this.engine.finishAsync(held());
		finished.whenCompleteAsync((lost, ex) -> {
			Throwable end = (failure != null) ? unwrap(failure) : (ex != null) ? unwrap(ex) : lost;
			this.call.ended(end);
			then.accept(end);
		}, this.executor);
	}

	/**
	 * Check, as the work is about to complete, that its locks were held throughout; the end then
	 * only releases them.
	 * @return completed with a {@link LockLostException}, or {@code null} if they were
	 */
	CompletableFuture<@Nullable RuntimeException> checkHeld() {
		this.checked = true;
		return this.engine.checkHeldAsync(held());
	}

	private Acquisition held() {
		Acquisition held = this.acquisition;
		if (held == null) {
			throw new IllegalStateException("The locks were not obtained");
		}
		return held;
	}

	static Throwable unwrap(Throwable ex) {
		return (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
	}

}
