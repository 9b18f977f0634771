package dev.zklock.aspects;

import java.lang.reflect.Method;

import dev.zklock.lock.aop.LockAdvice;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.DeclarePrecedence;
import org.aspectj.lang.reflect.MethodSignature;
import org.jspecify.annotations.Nullable;

/**
 * Runs the executions of {@code @ZkLocked} instance methods, self-invoked, private and final
 * ones included, while holding their locks: the AspectJ way into the same {@link LockAdvice}
 * as the proxy advisor's. Each call is advised by the application context whose bean the
 * target is, in {@code zklock.advice-mode=aspectj}; in proxy mode the woven code just runs.
 * <p>
 * It matches the annotation on the executed method itself (not on an interface method it
 * implements, and not through a meta-annotation). Among woven aspects, the precedence matches
 * the proxy mode's default order: {@code @Async}, then {@code @ZkLeader}, then
 * {@code @ZkLocked}, then {@code @Transactional} (Spring's aspects from spring-aspects).
 *
 * @since 0.1.0
 */
@Aspect
@DeclarePrecedence("org.springframework.scheduling.aspectj.*, dev.zklock.aspects.ZkLeaderAspect, "
		+ "dev.zklock.aspects.ZkLockedAspect, org.springframework.transaction.aspectj.*")
public class ZkLockedAspect {

	/**
	 * Run a locked method's execution under its locks.
	 * @param joinPoint the execution
	 * @return the method's result
	 * @throws Throwable the method's own exception, or the lock's
	 */
	@Around("execution(@dev.zklock.annotation.ZkLocked !static * *(..))")
	public @Nullable Object lock(ProceedingJoinPoint joinPoint) throws Throwable {
		Object target = joinPoint.getThis();
		Method method = ((MethodSignature) joinPoint.getSignature()).getMethod();
		ContextAdvice context = (target != null) ? AdvisedObjects.of(target, method) : null;
		LockAdvice advice = (context != null) ? context.lock() : null;
		if (target == null || advice == null) {
			return joinPoint.proceed();
		}
		return advice.invoke(target, LockAdvice.targetClass(target), method, joinPoint.getArgs(), joinPoint::proceed);
	}

}
