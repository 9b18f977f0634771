package dev.zklock;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.zklock.support.CallContext;

/**
 * The leadership terms of the {@code @ZkLeader} calls the current code runs in: a blocking
 * call's, and the synchronous part of the body of a call that returns a {@code CompletionStage}
 * or a reactive type. Later stages of such a call's work see its term where the context is
 * propagated ({@link ZkLockThreadLocalAccessor}); a call that has ended is never seen.
 *
 * <pre class="code">
 * &#64;ZkLeader("billing")
 * &#64;Scheduled(fixedDelay = 60_000)
 * public void bill() {
 *     LeaderTerm term = ZkLeaderContext.current();
 *     ledger.write(entries, term.epoch()); // the epoch fences writes of a former leader
 * }
 * </pre>
 *
 * @since 0.2.0
 */
public final class ZkLeaderContext {

	private ZkLeaderContext() {
	}

	/**
	 * Return the term of the innermost {@code @ZkLeader} call the current code runs in.
	 * @return the term
	 * @throws IllegalStateException if the code runs in no leader-only call
	 */
	public static LeaderTerm current() {
		CallContext context = CallContext.current();
		LeaderTerm term = (context != null) ? context.term() : null;
		if (term == null) {
			throw new IllegalStateException("The current thread runs no @ZkLeader call: ZkLeaderContext.current() "
					+ "works inside a @ZkLeader method, on the thread that runs it, and in later stages of its work "
					+ "where the context is propagated; elsewhere use ZkLeadership.term(group)");
		}
		return term;
	}

	/**
	 * Find the term of the given group, if the current code runs in a {@code @ZkLeader} call of
	 * it (for example an outer call).
	 * @param group the group
	 * @return the term, or empty
	 */
	public static Optional<LeaderTerm> find(String group) {
		CallContext context = CallContext.current();
		@Nullable LeaderTerm term = (context != null) ? context.term(group) : null;
		return Optional.ofNullable(term);
	}

}
