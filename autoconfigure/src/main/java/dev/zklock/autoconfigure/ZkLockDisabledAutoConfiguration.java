package dev.zklock.autoconfigure;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

/**
 * Auto-configuration that applies only when zklock is turned off ({@code zklock.enabled=false}):
 * a warning at startup naming the annotated methods that then run unguarded.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "zklock.enabled", havingValue = false)
public final class ZkLockDisabledAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static DisabledAnnotationsWarning zklockDisabledAnnotationsWarning(ConfigurableListableBeanFactory beanFactory) {
		return new DisabledAnnotationsWarning(beanFactory);
	}

}
