package dev.zklock.aspects;

import java.lang.reflect.Method;

import dev.zklock.leader.LeaderAdvice;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.reflect.MethodSignature;
import org.jspecify.annotations.Nullable;

/**
 * Lets the executions of {@code @ZkLeader} instance methods, self-invoked, private and final
 * ones included, through only on the leader of their group: the AspectJ way into the same
 * {@link LeaderAdvice} as the proxy advisor's. An annotation on the class covers its public
 * methods, as in proxy mode. Each call is advised by the application context whose bean the
 * target is, in {@code zklock.advice-mode=aspectj}; in proxy mode the woven code just runs.
 * Its precedence over {@link ZkLockedAspect} is declared there.
 *
 * @since 0.1.0
 */
@Aspect
public class ZkLeaderAspect {

	/**
	 * Run a leader-only method's execution if this instance leads its group.
	 * @param joinPoint the execution
	 * @return the method's result, or the value a skipped call returns
	 * @throws Throwable the method's own exception, or {@code NotLeaderException}
	 */
	@Around("execution(@dev.zklock.annotation.ZkLeader !static * *(..)) "
			+ "|| execution(public !static * (@dev.zklock.annotation.ZkLeader *).*(..))")
	public @Nullable Object leaderOnly(ProceedingJoinPoint joinPoint) throws Throwable {
		Object target = joinPoint.getThis();
		Method method = ((MethodSignature) joinPoint.getSignature()).getMethod();
		ContextAdvice context = (target != null) ? AdvisedObjects.of(target, method) : null;
		LeaderAdvice advice = (context != null) ? context.leader() : null;
		if (target == null || advice == null) {
			return joinPoint.proceed();
		}
		return advice.invoke(target.getClass(), method, joinPoint::proceed);
	}

}
