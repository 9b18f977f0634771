package dev.zklock.leader;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

/**
 * The proxy's way into the {@link LeaderAdvice}: lets a call to a leader-only method, made
 * through a proxy, through only while this instance leads the method's group.
 */
final class ZkLeaderInterceptor implements MethodInterceptor {

	private final LeaderAdvice advice;

	ZkLeaderInterceptor(LeaderAdvice advice) {
		this.advice = advice;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : null;
		return this.advice.invoke(targetClass, invocation.getMethod(), invocation::proceed);
	}

}
