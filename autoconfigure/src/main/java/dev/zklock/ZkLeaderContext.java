package dev.zklock;

import java.util.Optional;

import dev.zklock.leader.ThreadTerms;

/**
 * The leadership terms in which the current thread runs, for code inside a {@code @ZkLeader}
 * method.
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
	 * Return the term of the innermost {@code @ZkLeader} call of the current thread.
	 * @return the term
	 * @throws IllegalStateException if the thread runs no leader-only call
	 */
	public static LeaderTerm current() {
		LeaderTerm term = ThreadTerms.current();
		if (term == null) {
			throw new IllegalStateException("The current thread runs no @ZkLeader call: ZkLeaderContext.current() "
					+ "works inside a @ZkLeader method, on the thread that runs it; elsewhere use "
					+ "ZkLeadership.term(group)");
		}
		return term;
	}

	/**
	 * Find the term of the given group, if the current thread runs a {@code @ZkLeader} call of
	 * it (for example an outer call).
	 * @param group the group
	 * @return the term, or empty
	 */
	public static Optional<LeaderTerm> find(String group) {
		return Optional.ofNullable(ThreadTerms.get(group));
	}

}
