package dev.zklock.leader;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

import dev.zklock.LeaderTerm;
import dev.zklock.LeadershipLostException;
import dev.zklock.ZkLeadership;
import dev.zklock.support.AdvisedCall;
import dev.zklock.support.CallContext;
import org.jspecify.annotations.Nullable;

/**
 * Runs a leader-only call in its term: binds the term to the thread (read by
 * {@link dev.zklock.ZkLeaderContext}),
 * interrupts the call when the term ends if its annotation asks for it, and makes a call that
 * outlived its term end with a {@link LeadershipLostException}, as a call that lost its lock
 * ends with a {@code LockLostException}.
 */
final class LeaderCalls implements LeadershipListener {

	private final Set<RunningCall> interruptible = ConcurrentHashMap.newKeySet();

	private volatile boolean listening;

	@Nullable Object proceed(AdvisedCall invocation, LeaderSpec spec, LeaderTerm term, ZkLeadership leadership)
			throws Throwable {
		RunningCall call = null;
		if (spec.interruptOnRevoke()) {
			listen(leadership);
			call = new RunningCall(Thread.currentThread(), term.group(), term.epoch());
			this.interruptible.add(call);
		}
		CallContext.Scope scope = CallContext.Scope.ofTerm(term);
		@Nullable CallContext outer = CallContext.enter(scope);
		Object result;
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			if (call != null && call.wasInterrupted() && !term.isValid()) {
				throw new LeadershipLostException(term.group(), term.epoch(), "and the call was interrupted", ex);
			}
			throw ex;
		}
		finally {
			scope.end();
			CallContext.set(outer);
			if (call != null) {
				this.interruptible.remove(call);
				if (call.end()) {
					Thread.interrupted(); // Not to leave a pooled thread interrupted.
				}
			}
		}
		if (!term.isValid()) {
			throw new LeadershipLostException(term.group(), term.epoch(), "while the call ran");
		}
		return result;
	}

	/**
	 * Run a leader-only call that returns a {@code CompletionStage} in its term: the term is the
	 * thread's while the method runs, and its context's until the method's stage completes.
	 * @return a future that completes like the method's stage, once the call has ended
	 */
	static @Nullable Object proceedAsync(AdvisedCall invocation, LeaderTerm term) throws Throwable {
		CallContext.Scope scope = CallContext.Scope.ofTerm(term);
		@Nullable CallContext outer = CallContext.enter(scope);
		Object result;
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			scope.end();
			throw ex;
		}
		finally {
			CallContext.set(outer);
		}
		if (!(result instanceof CompletionStage<?> stage)) {
			scope.end();
			return result;
		}
		CompletableFuture<Object> ended = new CompletableFuture<>();
		stage.whenComplete((value, ex) -> {
			scope.end();
			if (ex != null) {
				ended.completeExceptionally(ex instanceof CompletionException && ex.getCause() != null ? ex.getCause() : ex);
			}
			else {
				ended.complete(value);
			}
		});
		ended.whenComplete((value, ex) -> {
			if (ended.isCancelled() && stage instanceof Future<?> future) {
				future.cancel(true);
			}
		});
		return ended;
	}

	private void listen(ZkLeadership leadership) {
		if (!this.listening && leadership instanceof LeaderElections elections) {
			synchronized (this) {
				if (!this.listening) {
					elections.addListener(this);
					this.listening = true;
				}
			}
		}
	}

	@Override
	public void granted(String group, long epoch) {
	}

	@Override
	public void revoked(String group, long epoch, String reason) {
		running(group, epoch).forEach(RunningCall::interrupt);
	}

	/**
	 * Return the interruptible calls running in a term.
	 */
	List<RunningCall> running(String group, long epoch) {
		return this.interruptible.stream().filter((call) -> call.group.equals(group) && call.epoch == epoch).toList();
	}

	/**
	 * An interruptible call that runs: its interrupt and its end exclude each other under its
	 * lock, so that a revocation never interrupts its thread once the call has ended.
	 */
	static final class RunningCall {

		private final Thread thread;

		private final String group;

		private final long epoch;

		private boolean interrupted;

		private boolean ended;

		RunningCall(Thread thread, String group, long epoch) {
			this.thread = thread;
			this.group = group;
			this.epoch = epoch;
		}

		/**
		 * Interrupt the call's thread, unless the call has ended: the thread may run other work
		 * by now.
		 */
		synchronized void interrupt() {
			if (!this.ended) {
				this.interrupted = true;
				this.thread.interrupt();
			}
		}

		synchronized boolean wasInterrupted() {
			return this.interrupted;
		}

		/**
		 * End the call: no interrupt from now on.
		 * @return whether the call's thread was interrupted, and should have its interrupt
		 * cleared
		 */
		synchronized boolean end() {
			this.ended = true;
			return this.interrupted;
		}

	}

}
