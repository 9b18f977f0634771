package dev.zklock.leader;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.zklock.LeaderTerm;
import dev.zklock.NotLeaderException;
import dev.zklock.ZkLeadership;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.support.AdvisedCall;
import dev.zklock.support.AnnotatedMethods;
import dev.zklock.support.CallStyle;
import dev.zklock.support.SkippedCalls;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What a call to a {@code @ZkLeader} method does, whichever way it was intercepted (a proxy's
 * advisor or a woven aspect): it goes through only while this instance leads the method's
 * group; otherwise it is skipped or fails with {@link NotLeaderException}, as the spec says. The
 * check is a read of local state: it never talks to ZooKeeper. For a method that returns a
 * {@code CompletionStage}, a skipped or refused call is a completed or failed future; for a
 * reactive type, leadership is checked on subscription ({@link ReactiveLeaderCalls}). A blocking
 * call let through runs in its term ({@link LeaderCalls}): it ends with a
 * {@code LeadershipLostException} if it outlives it.
 *
 * @since 0.1.0
 */
public final class LeaderAdvice {

	private static final Log logger = LogFactory.getLog(LeaderAdvice.class);

	private final LeaderMethods methods;

	private final Supplier<ZkLeadership> leadership;

	private final LeaderCalls calls;

	LeaderAdvice(LeaderMethods methods, Supplier<ZkLeadership> leadership, LeaderCalls calls) {
		this.methods = methods;
		this.leadership = leadership;
		this.calls = calls;
	}

	/**
	 * Run a call to a method if this instance leads its group; a method without a leader spec
	 * just runs.
	 * @param targetClass the class whose annotations apply, {@code null} if unknown
	 * @param method the method called
	 * @param call the rest of the call
	 * @return the method's result, or the value a skipped call returns
	 * @throws Throwable the method's own exception, or {@link NotLeaderException}
	 */
	public @Nullable Object invoke(@Nullable Class<?> targetClass, Method method, AdvisedCall call) throws Throwable {
		LeaderSpec spec = this.methods.specFor(method, targetClass);
		if (spec == null) {
			return call.proceed();
		}
		ZkLeadership leadership = this.leadership.get();
		if (spec.style() == CallStyle.REACTIVE) {
			return ReactiveLeaderCalls.onSubscribe(method, spec, call, () -> leadership.term(spec.group()),
					() -> notLeader(leadership, spec.group()));
		}
		Optional<LeaderTerm> term = leadership.term(spec.group());
		if (term.isPresent()) {
			return (spec.style() == CallStyle.BLOCKING) ? this.calls.proceed(call, spec, term.get(), leadership)
					: LeaderCalls.proceedAsync(call, term.get());
		}
		if (spec.whenNotLeader() == WhenNotLeader.THROW) {
			NotLeaderException notLeader = notLeader(leadership, spec.group());
			if (spec.style() == CallStyle.COMPLETION_STAGE) {
				return CompletableFuture.failedFuture(notLeader);
			}
			throw notLeader;
		}
		if (logger.isTraceEnabled()) {
			logger.trace("Skipping " + AnnotatedMethods.describe(method) + ": this instance is not the leader of group '"
					+ spec.group() + "'");
		}
		return (spec.style() == CallStyle.COMPLETION_STAGE) ? CompletableFuture.completedFuture(null)
				: SkippedCalls.result(method);
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
