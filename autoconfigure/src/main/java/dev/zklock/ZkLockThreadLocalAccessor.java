package dev.zklock;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;

import dev.zklock.support.CallContext;

/**
 * Carries the locks of {@code @ZkLocked} and {@link ZkLockTemplate} calls, and the terms of
 * {@code @ZkLeader} calls, to the threads that run their later stages, for Micrometer's Context
 * Propagation: an executor wrapped by a {@code ContextSnapshot} (or Spring's
 * {@code ContextPropagatingTaskDecorator}) and Reactor's automatic context propagation
 * ({@code Hooks.enableAutomaticContextPropagation()}) then let {@link ZkLockContext} and
 * {@link ZkLeaderContext} see them there. A call that has ended is never seen, even by a stage
 * that captured the context while the call ran.
 * <p>
 * Registered with {@link ContextRegistry#getInstance()} by Java's {@code ServiceLoader} when
 * {@code io.micrometer:context-propagation} is on the class path; nothing to do.
 *
 * @since 0.1.0
 */
public final class ZkLockThreadLocalAccessor implements ThreadLocalAccessor<CallContext> {

	/**
	 * The key of the accessor, and of the calls' context in a Reactor context.
	 */
	public static final String KEY = CallContext.KEY;

	@Override
	public Object key() {
		return KEY;
	}

	@Override
	public @Nullable CallContext getValue() {
		return CallContext.current();
	}

	@Override
	public void setValue(CallContext value) {
		CallContext.set(value);
	}

	@Override
	public void setValue() {
		CallContext.set(null);
	}

}
