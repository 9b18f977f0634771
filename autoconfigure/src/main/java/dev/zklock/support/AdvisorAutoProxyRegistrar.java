package dev.zklock.support;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Makes sure an auto-proxy creator is registered, so that zklock's advisors (registered as
 * infrastructure beans) are applied, in their order, together with Spring's own advisors such as
 * the transaction advisor, in one proxy per bean. It keeps a stronger creator that the
 * application or Spring Boot registered (for example the AspectJ one). With
 * {@code zklock.advice-mode=aspectj} there are no zklock advisors, and it registers nothing.
 */
public class AdvisorAutoProxyRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

	private AdviceMode adviceMode = AdviceMode.PROXY;

	@Override
	public void setEnvironment(Environment environment) {
		String mode = environment.getProperty("zklock.advice-mode");
		this.adviceMode = "aspectj".equalsIgnoreCase((mode != null) ? mode.trim() : null) ? AdviceMode.ASPECTJ
				: AdviceMode.PROXY;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata, BeanDefinitionRegistry registry) {
		if (this.adviceMode == AdviceMode.PROXY) {
			AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		}
	}

}
