package dev.zklock.leader;

import java.lang.reflect.Method;
import java.util.function.Supplier;

import dev.zklock.ZkLeadership;
import dev.zklock.annotation.ZkLeader;
import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Applies the leader-only advice to the methods that {@link ZkLeader @ZkLeader} marks, directly,
 * through their class, or through a meta-annotation.
 *
 * @since 0.1.0
 */
public final class ZkLeaderAdvisor extends AbstractPointcutAdvisor {

	private final Pointcut pointcut;

	private final Advice advice;

	/**
	 * Create an advisor.
	 * @param methods the leader-only methods
	 * @param leadership the leadership to consult, looked up on the first call
	 * @param order the order of the advice among other advisors
	 */
	public ZkLeaderAdvisor(LeaderMethods methods, Supplier<ZkLeadership> leadership, int order) {
		this.pointcut = new LeaderMethodPointcut(methods);
		this.advice = new ZkLeaderInterceptor(methods, SingletonSupplier.of(leadership));
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

	/**
	 * Matches the methods that have a leader spec, so that the pointcut and the advice always
	 * agree.
	 */
	private static final class LeaderMethodPointcut extends StaticMethodMatcherPointcut {

		private final LeaderMethods methods;

		LeaderMethodPointcut(LeaderMethods methods) {
			this.methods = methods;
			setClassFilter((type) -> AnnotationUtils.isCandidateClass(type, ZkLeader.class));
		}

		@Override
		public boolean matches(Method method, Class<?> targetClass) {
			return this.methods.specFor(method, targetClass) != null;
		}

	}

}
