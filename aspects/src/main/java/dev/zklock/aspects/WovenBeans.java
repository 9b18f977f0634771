package dev.zklock.aspects;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.zklock.annotation.ZkLeader;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.support.AnnotatedMethods;
import dev.zklock.support.InvalidAnnotationException;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Registers the application context's beans that have {@code @ZkLocked} or {@code @ZkLeader}
 * methods with the advice of this context, as soon as each is instantiated (before its
 * initialisation callbacks may call those methods), so that the woven aspects advise their calls
 * with this context's template and elections. In AspectJ mode it also fails the startup on a
 * bean whose annotated methods were not woven, which would otherwise run unadvised.
 */
final class WovenBeans implements InstantiationAwareBeanPostProcessor, SmartInitializingSingleton, BeanFactoryAware,
		DisposableBean, PriorityOrdered {

	private static final String WOVEN_BODY_SUFFIX = "_aroundBody";

	private final ContextAdvice advice;

	private final Map<Class<?>, Boolean> annotated = new ConcurrentHashMap<>();

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	WovenBeans(ContextAdvice advice) {
		this.advice = advice;
		AdvisedObjects.start(advice);
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
			this.beanFactory = listable;
		}
	}

	@Override
	public boolean postProcessAfterInstantiation(Object bean, String beanName) {
		register(bean, beanName);
		return true;
	}

	@Override
	public void afterSingletonsInstantiated() {
		ConfigurableListableBeanFactory beanFactory = this.beanFactory;
		if (beanFactory != null) {
			for (String beanName : beanFactory.getSingletonNames()) {
				Object bean = beanFactory.getSingleton(beanName);
				if (bean != null) {
					register(bean, beanName);
				}
			}
		}
	}

	@Override
	public void destroy() {
		AdvisedObjects.stop(this.advice);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	private void register(Object bean, String beanName) {
		Class<?> type = ClassUtils.getUserClass(AopProxyUtils.ultimateTargetClass(bean));
		Boolean hasAnnotations = this.annotated.get(type);
		if (hasAnnotations == null) {
			hasAnnotations = check(type, beanName, ZkLocked.class) | check(type, beanName, ZkLeader.class)
					| checkLeaderClass(type, beanName);
			this.annotated.put(type, hasAnnotations);
		}
		if (hasAnnotations) {
			AdvisedObjects.register(bean, this.advice);
		}
	}

	/**
	 * Tell whether the class has methods with the annotation, failing in AspectJ mode on one
	 * that was not woven.
	 */
	private boolean check(Class<?> type, String beanName, Class<? extends Annotation> annotation) {
		boolean found = false;
		for (Method method : AnnotatedMethods.find(type, annotation)) {
			found = true;
			failIfNotWoven(annotation, beanName, method);
		}
		return found;
	}

	/**
	 * Tell whether the class is annotated with {@code @ZkLeader}, failing in AspectJ mode on a
	 * public method it declares that was not woven.
	 */
	private boolean checkLeaderClass(Class<?> type, String beanName) {
		if (!AnnotatedElementUtils.hasAnnotation(type, ZkLeader.class)) {
			return false;
		}
		for (Method method : type.getDeclaredMethods()) {
			int modifiers = method.getModifiers();
			if (Modifier.isPublic(modifiers) && !Modifier.isStatic(modifiers) && !method.isSynthetic()
					&& !method.isBridge()) {
				failIfNotWoven(ZkLeader.class, beanName, method);
			}
		}
		return true;
	}

	private void failIfNotWoven(Class<? extends Annotation> annotation, String beanName, Method method) {
		if (this.advice.isWoven() && !isWoven(method)) {
			throw new InvalidAnnotationException(annotation, beanName, method, "zklock.advice-mode is aspectj, but "
					+ method.getDeclaringClass().getName() + " was not woven with the zklock-aspects aspects, so "
					+ "the method would run unadvised; weave it at compile time (the AspectJ Maven plugin with "
					+ "zklock-aspects as an aspect library) or at load time (-javaagent:aspectjweaver.jar), or set "
					+ "zklock.advice-mode=proxy (the aspects match the annotation on the method or class itself, "
					+ "not a composed or inherited one)");
		}
	}

	/**
	 * Tell whether around advice was woven into the method: ajc moves the body of an advised
	 * method into a method of its own, named after it.
	 */
	private static boolean isWoven(Method method) {
		String prefix = method.getName() + WOVEN_BODY_SUFFIX;
		for (Method declared : method.getDeclaringClass().getDeclaredMethods()) {
			if (declared.getName().startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

}
