package dev.zklock.support;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Makes sure an auto-proxy creator is registered, so that zklock's advisors (registered as
 * infrastructure beans) are applied, in their order, together with Spring's own advisors such as
 * the transaction advisor, in one proxy per bean. It keeps a stronger creator that the
 * application or Spring Boot registered (for example the AspectJ one).
 */
public class AdvisorAutoProxyRegistrar implements ImportBeanDefinitionRegistrar {

	@Override
	public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata, BeanDefinitionRegistry registry) {
		AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
	}

}
