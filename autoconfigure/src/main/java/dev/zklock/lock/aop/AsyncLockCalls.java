package dev.zklock.lock.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockTimeoutException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.support.AdvisedCall;

/**
 * Runs a {@code @ZkLocked} method that returns a {@code CompletionStage}: the lock is asked for
 * without blocking, the method is called once it is held, and released when the method's future
 * completes. Reactive types: {@link ReactiveLockCalls}.
 */
final class AsyncLockCalls {

	private AsyncLockCalls() {
	}

	/**
	 * Lock a method that returns a {@code CompletionStage}.
	 */
	@SuppressWarnings("unchecked")
	static CompletableFuture<Object> completionStage(LockSpec spec, List<String> keys, ZkLockTemplate template,
			AdvisedCall call) {
		return template.executeOrElseAsync(spec.keyText(), keys, spec.mode(), spec.waitTime(),
				(lock) -> (CompletionStage<Object>) call.proceed(),
				() -> (spec.onTimeout() == OnLockTimeout.SKIP) ? CompletableFuture.completedFuture(null)
						: CompletableFuture.failedFuture(timeout(spec, keys, template)));
	}

	static LockTimeoutException timeout(LockSpec spec, List<String> keys, ZkLockTemplate template) {
		@Nullable Duration waitTime = spec.waitTime();
		Duration wait = (waitTime != null) ? waitTime : template.getDefaultWaitTime();
		return new LockTimeoutException((keys.size() == 1) ? keys.get(0) : keys.toString(), wait);
	}

}
