package dev.zklock.leader;

import java.lang.reflect.Modifier;

import dev.zklock.annotation.ZkLeaderComponent;
import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds the beans annotated {@link ZkLeaderComponent @ZkLeaderComponent} (on their class or
 * their {@code @Bean} method), hands them to {@link LeaderComponents}, records their group so
 * that its election is joined, and keeps them from starting or stopping other than through
 * zklock: each bean is wrapped in a class-based proxy (or, if it is a proxy already, given
 * an advice) whose {@code isAutoStartup()} says {@code false} and whose {@code start()} and
 * {@code stop()} from outside go through {@link LeaderComponents}
 * ({@link LeaderComponentInterceptor}).
 *
 * @since 0.2.0
 */
public final class ZkLeaderComponentPostProcessor implements BeanPostProcessor, BeanFactoryAware {

	private final LeaderMethods methods;

	private final LeaderComponents components;

	private @Nullable ListableBeanFactory beanFactory;

	/**
	 * Create a post-processor.
	 * @param methods the leader-only methods, which record the groups to join
	 * @param components where the components are registered
	 */
	public ZkLeaderComponentPostProcessor(LeaderMethods methods, LeaderComponents components) {
		this.methods = methods;
		this.components = components;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
		this.beanFactory = (beanFactory instanceof ListableBeanFactory listable) ? listable : null;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		ZkLeaderComponent annotation = findAnnotation(bean, beanName);
		if (annotation == null) {
			return bean;
		}
		if (!(bean instanceof SmartLifecycle)) {
			throw fail(beanName, "it is not a SmartLifecycle; only a component with a lifecycle can be started and "
					+ "stopped with the leadership (use @ZkLeader on methods instead)");
		}
		String group;
		try {
			group = this.methods.group(annotation.group());
		}
		catch (IllegalArgumentException ex) {
			throw fail(beanName, String.valueOf(ex.getMessage()));
		}
		Object component = underZkLock(bean, beanName, new LeaderComponentInterceptor(this.components, group));
		this.components.register(group, beanName, (SmartLifecycle) component);
		return component;
	}

	private @Nullable ZkLeaderComponent findAnnotation(Object bean, String beanName) {
		ListableBeanFactory beanFactory = this.beanFactory;
		if (beanFactory != null && beanFactory.containsBeanDefinition(beanName)) {
			try {
				return beanFactory.findAnnotationOnBean(beanName, ZkLeaderComponent.class);
			}
			catch (NoSuchBeanDefinitionException ex) {
				// Fall back to the class.
			}
		}
		return AnnotatedElementUtils.findMergedAnnotation(AopProxyUtils.ultimateTargetClass(bean),
				ZkLeaderComponent.class);
	}

	private static Object underZkLock(Object bean, String beanName, MethodInterceptor interceptor) {
		if (bean instanceof Advised advised && !advised.isFrozen()) {
			advised.addAdvice(0, interceptor);
			return bean;
		}
		if (Modifier.isFinal(bean.getClass().getModifiers())) {
			throw fail(beanName, "its class is final, so it cannot be proxied to keep it from being started by the "
					+ "context (its start() or ConfigurableApplicationContext.start()) on an instance that does not "
					+ "lead; make its class non-final");
		}
		ProxyFactory proxyFactory = new ProxyFactory(bean);
		proxyFactory.setProxyTargetClass(true);
		proxyFactory.addAdvice(interceptor);
		return proxyFactory.getProxy(bean.getClass().getClassLoader());
	}

	private static BeanInitializationException fail(String beanName, String problem) {
		return new BeanInitializationException("Invalid @ZkLeaderComponent on bean '" + beanName + "': " + problem);
	}

}
