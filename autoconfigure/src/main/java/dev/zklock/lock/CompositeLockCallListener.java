package dev.zklock.lock;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;
import dev.zklock.LockMode;

/**
 * Tells several listeners of the same calls, in order.
 */
final class CompositeLockCallListener implements LockCallListener {

	private final List<LockCallListener> listeners;

	CompositeLockCallListener(List<LockCallListener> listeners) {
		this.listeners = listeners;
	}

	@Override
	public LockCall callStarted(@Nullable String name, List<String> keys, LockMode mode) {
		LockCall[] calls = new LockCall[this.listeners.size()];
		for (int i = 0; i < calls.length; i++) {
			calls[i] = this.listeners.get(i).callStarted(name, keys, mode);
		}
		return new CompositeLockCall(calls);
	}

	@Override
	public void lockLost(String key, LockMode mode) {
		for (LockCallListener listener : this.listeners) {
			listener.lockLost(key, mode);
		}
	}

	private record CompositeLockCall(LockCall[] calls) implements LockCall {

		@Override
		public void acquired(HeldLock lock) {
			for (LockCall call : this.calls) {
				call.acquired(lock);
			}
		}

		@Override
		public void detached() {
			for (int i = this.calls.length - 1; i >= 0; i--) {
				this.calls[i].detached();
			}
		}

		@Override
		public void notAcquired(AcquisitionOutcome outcome, @Nullable Throwable error) {
			for (LockCall call : this.calls) {
				call.notAcquired(outcome, error);
			}
		}

		@Override
		public void ended(@Nullable Throwable error) {
			// Reverse order, so that nested scopes (observations) close innermost first.
			for (int i = this.calls.length - 1; i >= 0; i--) {
				this.calls[i].ended(error);
			}
		}

	}

}
