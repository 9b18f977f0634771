package dev.zklock.lock.aop;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import dev.zklock.LockTimeoutException;
import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.OnLockTimeout;
import dev.zklock.support.SkippedCalls;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Runs a {@code @ZkLocked} method through the {@link ZkLockTemplate}, holding the locks its spec
 * names. The method's own exceptions, checked ones included, reach the caller unchanged.
 */
final class LockInterceptor implements MethodInterceptor {

	private final LockSpecs specs;

	private final Supplier<ZkLockTemplate> template;

	LockInterceptor(LockSpecs specs, Supplier<ZkLockTemplate> template) {
		this.specs = specs;
		this.template = template;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? LockSpecs.userClass(target)
				: invocation.getMethod().getDeclaringClass();
		LockSpec spec = this.specs.specFor(invocation.getMethod(), targetClass, targetClass.getName());
		if (spec == null) {
			return invocation.proceed();
		}
		List<String> keys = this.specs.keys(spec, target, targetClass, invocation.getArguments());
		ZkLockTemplate template = this.template.get();
		switch (spec.style()) {
			case COMPLETION_STAGE -> {
				return AsyncLockCalls.completionStage(spec, keys, template, invocation::proceed);
			}
			case REACTIVE -> {
				return ReactiveLockCalls.reactive(spec, keys, template, invocation::proceed);
			}
			default -> {
			}
		}
		return template.executeOrElse(spec.keyText(), keys, spec.mode(), spec.waitTime(),
				(lock) -> invocation.proceed(), () -> timedOut(spec, keys, template));
	}

	private static @Nullable Object timedOut(LockSpec spec, List<String> keys, ZkLockTemplate template) {
		if (spec.onTimeout() == OnLockTimeout.SKIP) {
			return SkippedCalls.result(spec.method());
		}
		Duration waitTime = (spec.waitTime() != null) ? spec.waitTime() : template.getDefaultWaitTime();
		throw new LockTimeoutException((keys.size() == 1) ? keys.get(0) : keys.toString(), waitTime);
	}

}
