package dev.zklock.leader;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

import dev.zklock.LeaderTerm;
import org.jspecify.annotations.Nullable;

/**
 * The terms of the {@code @ZkLeader} calls that the current thread runs, innermost first; read
 * through {@link dev.zklock.ZkLeaderContext}.
 *
 * @since 0.2.0
 */
public final class ThreadTerms {

	private static final ThreadLocal<Deque<LeaderTerm>> terms = ThreadLocal.withInitial(ArrayDeque::new);

	private ThreadTerms() {
	}

	/**
	 * Return the term of the innermost call, or {@code null}.
	 * @return the term
	 */
	public static @Nullable LeaderTerm current() {
		return terms.get().peekFirst();
	}

	/**
	 * Return the innermost term of the group, or {@code null}.
	 * @param group the group
	 * @return the term
	 */
	public static @Nullable LeaderTerm get(String group) {
		for (Iterator<LeaderTerm> it = terms.get().iterator(); it.hasNext();) {
			LeaderTerm term = it.next();
			if (term.group().equals(group)) {
				return term;
			}
		}
		return null;
	}

	static void push(LeaderTerm term) {
		terms.get().push(term);
	}

	static void pop() {
		Deque<LeaderTerm> deque = terms.get();
		deque.poll();
		if (deque.isEmpty()) {
			terms.remove();
		}
	}

}
