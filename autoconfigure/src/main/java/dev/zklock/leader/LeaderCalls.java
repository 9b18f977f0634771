package dev.zklock.leader;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.zklock.LeaderTerm;
import dev.zklock.LeadershipLostException;
import dev.zklock.ZkLeadership;
import dev.zklock.support.AdvisedCall;
import org.jspecify.annotations.Nullable;

/**
 * Runs a leader-only call in its term: binds the term to the thread ({@link ThreadTerms}),
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
		ThreadTerms.push(term);
		Object result;
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			if (call != null && call.interrupted && !term.isValid()) {
				throw new LeadershipLostException(term.group(), term.epoch(), "and the call was interrupted", ex);
			}
			throw ex;
		}
		finally {
			ThreadTerms.pop();
			if (call != null) {
				this.interruptible.remove(call);
				if (call.interrupted) {
					Thread.interrupted(); // Not to leave a pooled thread interrupted.
				}
			}
		}
		if (!term.isValid()) {
			throw new LeadershipLostException(term.group(), term.epoch(), "while the call ran");
		}
		return result;
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
		for (RunningCall call : this.interruptible) {
			if (call.group.equals(group) && call.epoch == epoch) {
				call.interrupted = true;
				call.thread.interrupt();
			}
		}
	}

	private static final class RunningCall {

		private final Thread thread;

		private final String group;

		private final long epoch;

		private volatile boolean interrupted;

		RunningCall(Thread thread, String group, long epoch) {
			this.thread = thread;
			this.group = group;
			this.epoch = epoch;
		}

	}

}
