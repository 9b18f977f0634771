package dev.zklock.autoconfigure;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import dev.zklock.annotation.ZkLeader;
import dev.zklock.annotation.ZkLocked;
import dev.zklock.support.AnnotatedMethods;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Logs one warning at startup, when zklock is disabled, naming the beans whose
 * {@code @ZkLocked} and {@code @ZkLeader} methods therefore run without a lock and on every
 * instance.
 */
final class DisabledAnnotationsWarning implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(DisabledAnnotationsWarning.class);

	private final ConfigurableListableBeanFactory beanFactory;

	DisabledAnnotationsWarning(ConfigurableListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<String> unguarded = unguardedMethods();
		if (!unguarded.isEmpty() && logger.isWarnEnabled()) {
			logger.warn("zklock is disabled (zklock.enabled=false): @ZkLocked methods run without a lock and "
					+ "@ZkLeader methods run on every instance. Unguarded: " + String.join(", ", unguarded));
		}
	}

	List<String> unguardedMethods() {
		List<String> unguarded = new ArrayList<>();
		for (String name : this.beanFactory.getBeanDefinitionNames()) {
			Class<?> type = this.beanFactory.getType(name, false);
			if (type == null) {
				continue;
			}
			Class<?> userClass = ClassUtils.getUserClass(type);
			describe(name, userClass, ZkLocked.class, unguarded);
			describe(name, userClass, ZkLeader.class, unguarded);
		}
		return unguarded;
	}

	private static void describe(String beanName, Class<?> type, Class<? extends Annotation> annotation,
			List<String> into) {
		for (Method method : AnnotatedMethods.find(type, annotation)) {
			into.add("@" + annotation.getSimpleName() + " " + AnnotatedMethods.describe(method) + " of bean '"
					+ beanName + "'");
		}
	}

}
