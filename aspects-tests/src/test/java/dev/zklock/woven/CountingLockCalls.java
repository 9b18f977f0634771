package dev.zklock.woven;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.LockMode;
import dev.zklock.lock.LockCall;
import dev.zklock.lock.LockCallListener;
import org.jspecify.annotations.Nullable;

/**
 * Counts the lock calls of a template: one per advised call, two if a call were advised twice.
 */
class CountingLockCalls implements LockCallListener {

	private final AtomicInteger calls = new AtomicInteger();

	@Override
	public LockCall callStarted(@Nullable String name, List<String> keys, LockMode mode) {
		this.calls.incrementAndGet();
		return LockCall.NONE;
	}

	int calls() {
		return this.calls.get();
	}

}
