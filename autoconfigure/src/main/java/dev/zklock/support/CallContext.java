package dev.zklock.support;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;
import dev.zklock.LeaderTerm;

/**
 * The locked and leader-only calls that the code running now belongs to, innermost first: what
 * {@code ZkLockContext} and {@code ZkLeaderContext} read. An immutable list, bound to a thread
 * while a call's own code runs on it, and carried further by whoever captures it: a
 * {@code ContextSnapshot} (through {@code ZkLockThreadLocalAccessor}) or the Reactor context.
 * <p>
 * A call's {@link Scope} ends before the call releases its locks or returns; an ended scope is
 * skipped by every lookup, so a continuation that runs after the call, with a context captured
 * during it, sees none of its locks.
 *
 * @since 0.1.0
 */
public final class CallContext {

	/**
	 * The key of the calls' context in a Reactor context, and of its {@code ThreadLocalAccessor}.
	 */
	public static final String KEY = "dev.zklock.calls";

	private static final ThreadLocal<@Nullable CallContext> current = new ThreadLocal<>();

	private final Scope scope;

	private final @Nullable CallContext outer;

	private CallContext(Scope scope, @Nullable CallContext outer) {
		this.scope = scope;
		this.outer = outer;
	}

	/**
	 * Return the context of the current thread.
	 * @return the context, or {@code null} outside any call
	 */
	public static @Nullable CallContext current() {
		return current.get();
	}

	/**
	 * Make the given context the current thread's.
	 * @param context the context, {@code null} for none
	 */
	public static void set(@Nullable CallContext context) {
		// Set to null rather than removed: the thread keeps its entry for the next call, which
		// would otherwise make a new one, and a null value holds nothing.
		current.set(context);
	}

	/**
	 * Bind a call's scope to the current thread, inside the thread's context.
	 * @param scope the scope
	 * @return the thread's context before, to {@link #set} back when the call's code returns
	 */
	public static @Nullable CallContext enter(Scope scope) {
		CallContext outer = current.get();
		current.set(new CallContext(scope, outer));
		return outer;
	}

	/**
	 * Return a context with the given scope inside the given one.
	 * @param scope the scope
	 * @param outer the context around it, {@code null} for none
	 * @return the context
	 */
	public static CallContext of(Scope scope, @Nullable CallContext outer) {
		return new CallContext(scope, outer);
	}

	/**
	 * Return the innermost lock of the innermost locked call that has not ended.
	 * @return the lock, or {@code null}
	 */
	public @Nullable HeldLock lock() {
		for (CallContext context = this; context != null; context = context.outer) {
			Scope scope = context.scope;
			if (!scope.locks.isEmpty() && !scope.ended) {
				return scope.locks.get(scope.locks.size() - 1);
			}
		}
		return null;
	}

	/**
	 * Return the lock on the key of the innermost locked call that holds it and has not ended.
	 * @param key the key
	 * @return the lock, or {@code null}
	 */
	public @Nullable HeldLock lock(String key) {
		for (CallContext context = this; context != null; context = context.outer) {
			Scope scope = context.scope;
			if (!scope.ended) {
				for (int i = scope.locks.size() - 1; i >= 0; i--) {
					HeldLock lock = scope.locks.get(i);
					if (lock.key().equals(key)) {
						return lock;
					}
				}
			}
		}
		return null;
	}

	/**
	 * Return the term of the innermost leader-only call that has not ended.
	 * @return the term, or {@code null}
	 */
	public @Nullable LeaderTerm term() {
		for (CallContext context = this; context != null; context = context.outer) {
			Scope scope = context.scope;
			if (scope.term != null && !scope.ended) {
				return scope.term;
			}
		}
		return null;
	}

	/**
	 * Return the term of the group of the innermost leader-only call of it that has not ended.
	 * @param group the group
	 * @return the term, or {@code null}
	 */
	public @Nullable LeaderTerm term(String group) {
		for (CallContext context = this; context != null; context = context.outer) {
			Scope scope = context.scope;
			if (scope.term != null && !scope.ended && scope.term.group().equals(group)) {
				return scope.term;
			}
		}
		return null;
	}

	/**
	 * One call as its code sees it: the locks it holds, or the term it runs in, until it ends.
	 */
	public static final class Scope {

		private final List<HeldLock> locks;

		private final @Nullable LeaderTerm term;

		private volatile boolean ended;

		private Scope(List<HeldLock> locks, @Nullable LeaderTerm term) {
			this.locks = locks;
			this.term = term;
		}

		/**
		 * Return the scope of a locked call.
		 * @param locks the call's locks, in the order it took them (the innermost last)
		 * @return the scope
		 */
		public static Scope ofLocks(List<HeldLock> locks) {
			return new Scope(List.copyOf(locks), null);
		}

		/**
		 * Return the scope of a leader-only call.
		 * @param term the term the call runs in
		 * @return the scope
		 */
		public static Scope ofTerm(LeaderTerm term) {
			return new Scope(List.of(), term);
		}

		/**
		 * End the call: no context shows its locks or term any more, wherever it was carried.
		 */
		public void end() {
			this.ended = true;
		}

		/**
		 * Return whether the call has ended.
		 * @return whether it has
		 */
		public boolean hasEnded() {
			return this.ended;
		}

	}

}
