package dev.zklock.lock.aop;

import java.lang.reflect.Method;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.zklock.annotation.ZkLocked;
import dev.zklock.support.AnnotatedMethods;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Resolves every bean's {@link ZkLocked @ZkLocked} methods into lock specs when the bean is
 * created, so that an annotation that cannot work fails the startup with the bean, the method
 * and the expression named, instead of failing on the first call. Singletons created before
 * this post-processor are checked once all singletons exist.
 *
 * @since 0.1.0
 */
public final class ZkLockedBeanPostProcessor
		implements BeanPostProcessor, BeanFactoryAware, SmartInitializingSingleton {

	private final LockSpecs specs;

	private final Set<Class<?>> checked = ConcurrentHashMap.newKeySet();

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	/**
	 * Create a post-processor.
	 * @param specs the lock specs to resolve
	 */
	public ZkLockedBeanPostProcessor(LockSpecs specs) {
		this.specs = specs;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
			this.beanFactory = listable;
		}
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		check(bean, beanName);
		return bean;
	}

	@Override
	public void afterSingletonsInstantiated() {
		ConfigurableListableBeanFactory beanFactory = this.beanFactory;
		if (beanFactory == null) {
			return;
		}
		for (String beanName : beanFactory.getSingletonNames()) {
			Object bean = beanFactory.getSingleton(beanName);
			if (bean != null) {
				check(bean, beanName);
			}
		}
	}

	private void check(Object bean, String beanName) {
		Class<?> type = LockSpecs.userClass(bean);
		if (!this.checked.contains(type) && AnnotationUtils.isCandidateClass(type, ZkLocked.class)) {
			for (Method method : AnnotatedMethods.find(type, ZkLocked.class)) {
				this.specs.specFor(method, type, beanName);
			}
			this.checked.add(type);
		}
	}

}
