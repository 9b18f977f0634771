package dev.zklock;

import reactor.core.publisher.Mono;

import dev.zklock.support.CallContext;

/**
 * The lock held by a reactive call, for the work inside a {@code @ZkLocked} method that returns a
 * {@code Mono} or a {@code Flux}, or a {@link ReactiveZkLockTemplate} call: it travels in the
 * Reactor context, not on a thread. It is the lock {@link ZkLockContext} gives where the calls'
 * context is on the thread (the method's body, and every operator with Reactor's automatic
 * context propagation); a call that has released its lock is never seen.
 *
 * <pre class="code">
 * return ReactiveZkLockContext.current()
 *     .flatMap((lock) -&gt; Mono.fromCompletionStage(lock.fencingTokenAsync()))
 *     .flatMap((token) -&gt; repository.save(stock.withFence(token)));
 * </pre>
 *
 * @since 0.1.0
 */
public final class ReactiveZkLockContext {

	private ReactiveZkLockContext() {
	}

	/**
	 * Return the innermost lock of the reactive call this pipeline runs in.
	 * @return the lock; an error with {@link IllegalStateException} outside any reactive call
	 */
	public static Mono<HeldLock> current() {
		return Mono.deferContextual((context) -> context.<CallContext>getOrEmpty(CallContext.KEY)
			.map(CallContext::lock)
			.map(Mono::just)
			.orElseGet(() -> Mono.error(new IllegalStateException("No zklock lock in the Reactor context: "
					+ "ReactiveZkLockContext.current() works inside the Mono or Flux of a @ZkLocked method or a "
					+ "ReactiveZkLockTemplate call, until the call releases its lock"))));
	}

}
