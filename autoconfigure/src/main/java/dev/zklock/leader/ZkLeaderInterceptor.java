package dev.zklock.leader;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.zklock.NotLeaderException;
import dev.zklock.ZkLeadership;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.support.AnnotatedMethods;
import dev.zklock.support.CallStyle;
import dev.zklock.support.SkippedCalls;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

/**
 * Lets a call to a leader-only method through only while this instance leads the method's
 * group. The check is a read of local state: it never talks to ZooKeeper.
 */
final class ZkLeaderInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(ZkLeaderInterceptor.class);

	private final LeaderMethods methods;

	private final Supplier<ZkLeadership> leadership;

	ZkLeaderInterceptor(LeaderMethods methods, Supplier<ZkLeadership> leadership) {
		this.methods = methods;
		this.leadership = leadership;
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
		if (spec.style() == CallStyle.REACTIVE) {
			return ReactiveLeaderCalls.onSubscribe(invocation.getMethod(), spec, invocation::proceed,
					() -> leadership.isLeader(spec.group()), () -> notLeader(leadership, spec.group()));
		}
		if (leadership.isLeader(spec.group())) {
			return invocation.proceed();
		}
		if (spec.whenNotLeader() == WhenNotLeader.THROW) {
			NotLeaderException notLeader = notLeader(leadership, spec.group());
			if (spec.style() == CallStyle.COMPLETION_STAGE) {
				return CompletableFuture.failedFuture(notLeader);
			}
			throw notLeader;
		}
		if (logger.isTraceEnabled()) {
			logger.trace("Skipping " + AnnotatedMethods.describe(invocation.getMethod())
					+ ": this instance is not the leader of group '" + spec.group() + "'");
		}
		return (spec.style() == CallStyle.COMPLETION_STAGE) ? CompletableFuture.completedFuture(null)
				: SkippedCalls.result(invocation.getMethod());
	}

	private static NotLeaderException notLeader(ZkLeadership leadership, String group) {
		return new NotLeaderException(group, reason(leadership, group));
	}

	private static String reason(ZkLeadership leadership, String group) {
		if (leadership instanceof LeaderElections elections) {
			return elections.notLeaderReason(group);
		}
		return (leadership instanceof FixedLeadership fixed) ? fixed.notLeaderReason() : "";
	}

}
