package dev.zklock;

import java.util.function.Function;

import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * The lock held by a reactive call, for the work inside a {@code @ZkLocked} method that returns a
 * {@code Mono} or a {@code Flux}, or a {@link ReactiveZkLockTemplate} call: it travels in the
 * Reactor context, not on a thread.
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

	private static final Object KEY = ReactiveZkLockContext.class.getName() + ".lock";

	private ReactiveZkLockContext() {
	}

	/**
	 * Return the innermost lock of the reactive call this pipeline runs in.
	 * @return the lock; an error with {@link IllegalStateException} outside any reactive call
	 */
	public static Mono<HeldLock> current() {
		return Mono.deferContextual((context) -> context.<HeldLock>getOrEmpty(KEY)
			.map(Mono::just)
			.orElseGet(() -> Mono.error(new IllegalStateException("No zklock lock in the Reactor context: "
					+ "ReactiveZkLockContext.current() works inside the Mono or Flux of a @ZkLocked method or a "
					+ "ReactiveZkLockTemplate call"))));
	}

	static Function<Context, Context> with(HeldLock lock) {
		return (context) -> context.put(KEY, lock);
	}

}
