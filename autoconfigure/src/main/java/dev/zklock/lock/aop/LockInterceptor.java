package dev.zklock.lock.aop;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * The proxy's way into the {@link LockAdvice}: runs a {@code @ZkLocked} method called through a
 * proxy while holding its locks.
 */
final class LockInterceptor implements MethodInterceptor {

	private final LockAdvice advice;

	LockInterceptor(LockAdvice advice) {
		this.advice = advice;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? LockAdvice.targetClass(target)
				: invocation.getMethod().getDeclaringClass();
		return this.advice.invoke(target, targetClass, invocation.getMethod(), invocation.getArguments(),
				invocation::proceed);
	}

}
