package dev.zklock.lock.aop;

import java.util.function.Supplier;

import dev.zklock.ZkLockTemplate;
import dev.zklock.annotation.ZkLocked;
import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.util.function.SingletonSupplier;

/**
 * Applies the lock advice to the methods that {@link ZkLocked @ZkLocked} marks, directly, on the
 * method they override or implement, or through a meta-annotation.
 * <p>
 * Its order decides where the lock is taken among other advice: the default,
 * {@code zklock.lock.order = Ordered.LOWEST_PRECEDENCE - 100}, runs outside a
 * {@code @Transactional} transaction (which has the lowest precedence by default), so the lock is
 * taken before the transaction begins and released after it commits or rolls back.
 *
 * @since 0.1.0
 */
public final class ZkLockedAdvisor extends AbstractPointcutAdvisor {

	private final Pointcut pointcut = new AnnotationMatchingPointcut(null, ZkLocked.class, true);

	private final Advice advice;

	/**
	 * Create an advisor.
	 * @param specs the lock specs of the annotated methods
	 * @param template the lock template, looked up on the first call
	 * @param order the order of the advice among other advisors
	 */
	public ZkLockedAdvisor(LockSpecs specs, Supplier<ZkLockTemplate> template, int order) {
		this.advice = new LockInterceptor(specs, SingletonSupplier.of(template));
		setOrder(order);
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.advice;
	}

}
