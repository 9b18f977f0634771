package dev.zklock.aspects;

import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockTemplate;
import dev.zklock.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zklock.autoconfigure.ZkLockAutoConfiguration;
import dev.zklock.leader.LeaderMethods;
import dev.zklock.lock.aop.LockSpecs;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the zklock aspects: registers the application context's annotated beans
 * with the lock and leader advice of this context, for the woven {@link ZkLockedAspect} and
 * {@link ZkLeaderAspect} to call when {@code zklock.advice-mode=aspectj}. In proxy mode the beans
 * are registered without advice, so that woven code in them does not advise a call a second
 * time. With {@code zklock.enabled=false} there is nothing to register: woven code just runs.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { ZkLockAutoConfiguration.class, ZkLeaderAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
public final class ZkLockAspectsAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static WovenBeans zklockWovenBeans(ObjectProvider<LockSpecs> lockSpecs, ObjectProvider<ZkLockTemplate> template,
			ObjectProvider<LeaderMethods> leaderMethods, ObjectProvider<ZkLeadership> leadership,
			Environment environment) {
		AdviceMode mode = Binder.get(environment)
			.bind("zklock.advice-mode", AdviceMode.class)
			.orElse(AdviceMode.PROXY);
		return new WovenBeans(new ContextAdvice(mode, () -> {
			LockSpecs specs = lockSpecs.getIfAvailable();
			return (specs != null) ? specs.advice(template::getObject) : null;
		}, () -> {
			LeaderMethods methods = leaderMethods.getIfAvailable();
			return (methods != null) ? methods.advice(leadership::getObject) : null;
		}));
	}

}
