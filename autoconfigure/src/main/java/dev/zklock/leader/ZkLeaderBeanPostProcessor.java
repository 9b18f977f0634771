package dev.zklock.leader;

import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.support.AnnotatedMethods;
import dev.zklock.support.CallStyle;
import dev.zklock.support.InvalidAnnotationException;
import dev.zklock.support.SkippedCalls;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Checks every bean's {@link ZkLeader @ZkLeader} methods when the bean is created, so that an
 * annotation that cannot work fails the startup with the bean and method named; resolving them
 * also records their groups, whose elections are then joined when the application starts.
 *
 * @since 0.1.0
 */
public final class ZkLeaderBeanPostProcessor implements BeanPostProcessor {

	private final LeaderMethods methods;

	private final AdviceMode adviceMode;

	private final Map<Class<?>, Boolean> checked = new ConcurrentHashMap<>();

	/**
	 * Create a post-processor for leader-only methods advised by proxies.
	 * @param methods the leader-only methods
	 */
	public ZkLeaderBeanPostProcessor(LeaderMethods methods) {
		this(methods, AdviceMode.PROXY);
	}

	/**
	 * Create a post-processor whose checks fit the way the advice is applied: with
	 * {@link AdviceMode#ASPECTJ}, private and final methods are accepted.
	 * @param methods the leader-only methods
	 * @param adviceMode how the advice is applied
	 */
	public ZkLeaderBeanPostProcessor(LeaderMethods methods, AdviceMode adviceMode) {
		this.methods = methods;
		this.adviceMode = adviceMode;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		Class<?> type = AopProxyUtils.ultimateTargetClass(bean);
		if (AnnotationUtils.isCandidateClass(type, ZkLeader.class) && !this.checked.containsKey(type)) {
			check(beanName, type);
			this.checked.put(type, Boolean.TRUE);
		}
		return bean;
	}

	private void check(String beanName, Class<?> type) {
		for (Method method : leaderMethods(beanName, type)) {
			LeaderSpec spec = spec(beanName, method, type);
			if (spec != null) {
				fail(beanName, method, CallStyle.problem(method));
			}
			if (spec != null && spec.whenNotLeader() == WhenNotLeader.SKIP && spec.style() == CallStyle.BLOCKING) {
				fail(beanName, method, SkippedCalls.skipProblem(method));
			}
		}
	}

	/**
	 * Return the methods annotated themselves, and those the class's annotation covers, failing
	 * on any that the advice, as applied (proxies or woven aspects), cannot intercept.
	 */
	private Set<Method> leaderMethods(String beanName, Class<?> type) {
		Set<Method> methods = new LinkedHashSet<>();
		for (Method method : AnnotatedMethods.find(type, ZkLeader.class)) {
			fail(beanName, method, AnnotatedMethods.interceptionProblem(method, type, this.adviceMode));
			methods.add(method);
		}
		if (AnnotatedElementUtils.hasAnnotation(type, ZkLeader.class)) {
			for (Method method : type.getMethods()) {
				if (LeaderMethods.isPublicInstanceMethod(method) && methods.add(method)) {
					fail(beanName, method, AnnotatedMethods.interceptionProblem(method, type, this.adviceMode));
				}
			}
		}
		return methods;
	}

	private @Nullable LeaderSpec spec(String beanName, Method method, Class<?> type) {
		try {
			return this.methods.specFor(method, type);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidAnnotationException(ZkLeader.class, beanName, method, String.valueOf(ex.getMessage()), ex);
		}
	}

	private static void fail(String beanName, Method method, @Nullable String problem) {
		if (problem != null) {
			throw new InvalidAnnotationException(ZkLeader.class, beanName, method, problem);
		}
	}

}
