package dev.zklock.benchmarks.library;

import java.util.function.BooleanSupplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.ProxyFactory;

/**
 * What a user would write without {@code @ZkLeader}: an interceptor that runs a bean's method
 * only where a check says this instance leads, on a CGLIB proxy as Spring Boot makes them. It
 * puts Curator's {@code hasLeadership()} behind the same kind of call as zklock's annotation.
 */
final class HandWrittenLeaderCheck implements MethodInterceptor {

	private final BooleanSupplier isLeader;

	private HandWrittenLeaderCheck(BooleanSupplier isLeader) {
		this.isLeader = isLeader;
	}

	/**
	 * Return a proxied {@link LeaderOnlyWork} that runs its work only where the check passes.
	 */
	static LeaderOnlyWork proxy(BooleanSupplier isLeader) {
		ProxyFactory factory = new ProxyFactory(new LeaderOnlyWork());
		factory.setProxyTargetClass(true);
		factory.addAdvice(new HandWrittenLeaderCheck(isLeader));
		return (LeaderOnlyWork) factory.getProxy(HandWrittenLeaderCheck.class.getClassLoader());
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		return this.isLeader.getAsBoolean() ? invocation.proceed() : null;
	}

	/**
	 * A bean method with leader-only work.
	 */
	public static class LeaderOnlyWork {

		/**
		 * Run the work.
		 * @param work the work
		 */
		public void run(Runnable work) {
			work.run();
		}

	}

}
