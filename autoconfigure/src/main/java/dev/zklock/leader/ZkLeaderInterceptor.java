package dev.zklock.leader;

import java.util.Optional;
import java.util.function.Supplier;

import dev.zklock.LeaderTerm;
import dev.zklock.NotLeaderException;
import dev.zklock.ZkLeadership;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.support.AnnotatedMethods;
import dev.zklock.support.SkippedCalls;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

/**
 * Lets a call to a leader-only method through only while this instance leads the method's
 * group. The check is a read of local state: it never talks to ZooKeeper. A call let through
 * runs in its term ({@link LeaderCalls}).
 */
final class ZkLeaderInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(ZkLeaderInterceptor.class);

	private final LeaderMethods methods;

	private final Supplier<ZkLeadership> leadership;

	private final LeaderCalls calls;

	ZkLeaderInterceptor(LeaderMethods methods, Supplier<ZkLeadership> leadership, LeaderCalls calls) {
		this.methods = methods;
		this.leadership = leadership;
		this.calls = calls;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : null;
		LeaderSpec spec = this.methods.specFor(invocation.getMethod(), targetClass);
		if (spec == null) {
			return invocation.proceed();
		}
		ZkLeadership leadership = this.leadership.get();
		Optional<LeaderTerm> term = leadership.term(spec.group());
		if (term.isPresent()) {
			return this.calls.proceed(invocation, spec, term.get(), leadership);
		}
		if (spec.whenNotLeader() == WhenNotLeader.THROW) {
			throw new NotLeaderException(spec.group(), reason(leadership, spec.group()));
		}
		if (logger.isTraceEnabled()) {
			logger.trace("Skipping " + AnnotatedMethods.describe(invocation.getMethod())
					+ ": this instance is not the leader of group '" + spec.group() + "'");
		}
		return SkippedCalls.result(invocation.getMethod());
	}

	private static String reason(ZkLeadership leadership, String group) {
		if (leadership instanceof LeaderElections elections) {
			return elections.notLeaderReason(group);
		}
		return (leadership instanceof FixedLeadership fixed) ? fixed.notLeaderReason() : "";
	}

}
