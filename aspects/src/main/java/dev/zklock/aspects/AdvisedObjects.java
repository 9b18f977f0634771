package dev.zklock.aspects;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;

import dev.zklock.support.AnnotatedMethods;
import org.jspecify.annotations.Nullable;

/**
 * Which application context's advice applies to a woven object. An aspect is a singleton of the
 * class loader, but several application contexts may run in one JVM (tests, or a parent and a
 * child), each with its own ZooKeeper session, template and elections: so each context
 * registers its beans here, and a call is advised by the context that created its target.
 * <p>
 * Objects are held weakly and by identity. An object that no context registered (made with
 * {@code new}, or called from its constructor) uses the one context running in AspectJ mode;
 * with none it runs unadvised, and with several its call fails, since it is not known whose
 * locks to take.
 */
final class AdvisedObjects {

	private static final Map<Key, ContextAdvice> objects = new ConcurrentHashMap<>(256);

	private static final ReferenceQueue<Object> collected = new ReferenceQueue<>();

	private static final Set<ContextAdvice> wovenContexts = new CopyOnWriteArraySet<>();

	private AdvisedObjects() {
	}

	static void register(Object object, ContextAdvice advice) {
		expunge();
		objects.put(new WeakKey(object, collected), advice);
	}

	static void start(ContextAdvice advice) {
		if (advice.isWoven()) {
			wovenContexts.add(advice);
		}
	}

	static void stop(ContextAdvice advice) {
		wovenContexts.remove(advice);
		objects.values().removeIf((registered) -> registered == advice);
	}

	/**
	 * Return the advice for a call, or {@code null} to run it unadvised.
	 * @throws IllegalStateException if the object is no context's bean and several contexts run
	 * in AspectJ mode
	 */
	static @Nullable ContextAdvice of(Object object, Method method) {
		ContextAdvice advice = objects.get(new LookupKey(object));
		if (advice != null) {
			return advice;
		}
		List<ContextAdvice> woven = List.copyOf(wovenContexts);
		if (woven.size() > 1) {
			throw new IllegalStateException(AnnotatedMethods.describe(method) + " was called on an object that is no "
					+ "bean of the " + woven.size() + " application contexts running with zklock.advice-mode=aspectj, "
					+ "so zklock cannot tell whose locks and elections apply; make the object a bean");
		}
		return woven.isEmpty() ? null : woven.get(0);
	}

	private static void expunge() {
		Reference<?> reference;
		while ((reference = collected.poll()) != null) {
			objects.remove((Key) reference);
		}
	}

	/**
	 * A key that compares the objects it refers to by identity.
	 */
	private interface Key {

		@Nullable Object object();

		int identity();

		default boolean sameAs(@Nullable Object other) {
			if (other == this) {
				return true;
			}
			if (!(other instanceof Key key)) {
				return false;
			}
			Object object = object();
			return object != null && object == key.object();
		}

	}

	private static final class WeakKey extends WeakReference<Object> implements Key {

		private final int identity;

		WeakKey(Object object, ReferenceQueue<Object> queue) {
			super(object, queue);
			this.identity = System.identityHashCode(object);
		}

		@Override
		public @Nullable Object object() {
			return get();
		}

		@Override
		public int identity() {
			return this.identity;
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return sameAs(other);
		}

		@Override
		public int hashCode() {
			return this.identity;
		}

	}

	private record LookupKey(Object object, int identity) implements Key {

		LookupKey(Object object) {
			this(object, System.identityHashCode(object));
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return sameAs(other);
		}

		@Override
		public int hashCode() {
			return this.identity;
		}

	}

}
