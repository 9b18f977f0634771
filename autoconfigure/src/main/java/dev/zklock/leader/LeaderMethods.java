package dev.zklock.leader;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import dev.zklock.ZkLeadership;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.support.CallStyle;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Resolves {@link ZkLeader @ZkLeader} on methods into specs, once per method and target class
 * ("not annotated" included), and records the groups they name so that their elections can be
 * joined.
 * <p>
 * An annotation on the method (or the method it overrides or implements) wins over one on the
 * class; one on the class applies to every public instance method, except {@code equals},
 * {@code hashCode} and {@code toString}.
 *
 * @since 0.1.0
 */
public final class LeaderMethods {

	private static final Object NOT_ANNOTATED = new Object();

	private final String defaultGroup;

	private final UnaryOperator<String> placeholders;

	private final Map<MethodClassKey, Object> specs = new ConcurrentHashMap<>(256);

	private final Set<String> groups = new LinkedHashSet<>();

	private final List<Consumer<String>> groupListeners = new CopyOnWriteArrayList<>();

	/**
	 * Create an instance.
	 * @param defaultGroup the group of annotations that name none
	 * @param placeholders resolves placeholders in group names, failing on unresolvable ones
	 */
	public LeaderMethods(String defaultGroup, UnaryOperator<String> placeholders) {
		this.defaultGroup = defaultGroup;
		this.placeholders = placeholders;
	}

	/**
	 * Return the advisor that applies the leader-only advice to these methods.
	 * @param leadership the leadership to consult, looked up on the first call
	 * @param order the order of the advice among other advisors
	 * @return the advisor
	 */
	public DefaultPointcutAdvisor advisor(Supplier<ZkLeadership> leadership, int order) {
		DefaultPointcutAdvisor advisor = new DefaultPointcutAdvisor(new LeaderMethodPointcut(this),
				new ZkLeaderInterceptor(advice(leadership)));
		advisor.setOrder(order);
		return advisor;
	}

	/**
	 * Return the leader-only advice for these methods, for a way in other than the
	 * {@link #advisor advisor}, such as a woven aspect.
	 * @param leadership the leadership to consult, looked up on the first call
	 * @return the advice
	 */
	public LeaderAdvice advice(Supplier<ZkLeadership> leadership) {
		return new LeaderAdvice(this, SingletonSupplier.of(leadership), new LeaderCalls());
	}

	/**
	 * Return the spec of a method called on a target class, or {@code null} if it is not a
	 * leader-only method.
	 * @throws IllegalArgumentException if the annotation names a group that cannot be used
	 */
	@Nullable LeaderSpec specFor(Method method, @Nullable Class<?> targetClass) {
		MethodClassKey key = new MethodClassKey(method, targetClass);
		Object spec = this.specs.get(key);
		if (spec == null) {
			LeaderSpec resolved = resolve(method, targetClass);
			spec = (resolved != null) ? resolved : NOT_ANNOTATED;
			this.specs.put(key, spec);
		}
		return (spec != NOT_ANNOTATED) ? (LeaderSpec) spec : null;
	}

	/**
	 * Call the listener with every group found so far, and with every group found later.
	 */
	synchronized void onGroup(Consumer<String> listener) {
		this.groupListeners.add(listener);
		this.groups.forEach(listener);
	}

	private @Nullable LeaderSpec resolve(Method method, @Nullable Class<?> targetClass) {
		if (method.getDeclaringClass() == Object.class) {
			return null;
		}
		Class<?> userClass = ClassUtils.getUserClass((targetClass != null) ? targetClass : method.getDeclaringClass());
		Method specificMethod = AopUtils.getMostSpecificMethod(method, userClass);
		ZkLeader annotation = AnnotatedElementUtils.findMergedAnnotation(specificMethod, ZkLeader.class);
		if (annotation == null && isPublicInstanceMethod(specificMethod)) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(userClass, ZkLeader.class);
		}
		if (annotation == null) {
			return null;
		}
		return new LeaderSpec(group(annotation.group()), annotation.whenNotLeader(), CallStyle.of(specificMethod),
				annotation.interruptOnRevoke());
	}

	/**
	 * Resolve a group as an annotation declares it (placeholders, the default group for none),
	 * validate it and record it so that its election is joined.
	 * @throws IllegalArgumentException if the group cannot be used
	 */
	String group(String declared) {
		String group = StringUtils.hasText(declared) ? this.placeholders.apply(declared).trim() : defaultGroup();
		register(GroupNames.validate(group));
		return group;
	}

	private String defaultGroup() {
		try {
			return GroupNames.validate(this.defaultGroup);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(ex.getMessage() + "; it is the default group, so name a group in the "
					+ "annotation or set zklock.leader.default-group", ex);
		}
	}

	private synchronized void register(String group) {
		if (this.groups.add(group)) {
			this.groupListeners.forEach((listener) -> listener.accept(group));
		}
	}

	static boolean isPublicInstanceMethod(Method method) {
		int modifiers = method.getModifiers();
		return Modifier.isPublic(modifiers) && !Modifier.isStatic(modifiers) && !method.isBridge()
				&& !method.isSynthetic() && !ReflectionUtils.isObjectMethod(method);
	}

}
