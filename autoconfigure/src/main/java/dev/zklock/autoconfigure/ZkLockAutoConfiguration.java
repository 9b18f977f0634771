package dev.zklock.autoconfigure;

import java.util.Objects;
import java.util.concurrent.Executor;

import dev.zklock.ReactiveZkLockTemplate;
import dev.zklock.ZkLockTemplate;
import dev.zklock.cluster.ForcedReleaseListener;
import dev.zklock.cluster.InstanceControl;
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockSettings;
import dev.zklock.lock.LongHoldWarnings;
import dev.zklock.lock.aop.LockSpecs;
import dev.zklock.lock.aop.ZkLockedBeanPostProcessor;
import dev.zklock.support.AdvisorAutoProxyRegistrar;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of locks: a {@link ZkLockTemplate} bean, told of its calls by the
 * application's {@link LockCallListener} beans (metrics, observations), and the advice that runs
 * {@code @ZkLocked} methods while holding their locks.
 * <p>
 * The advice runs, by default, outside {@code @Transactional}: the lock is taken before the
 * transaction begins and released after it commits ({@code zklock.lock.order}). The advisor and
 * the post-processor that checks annotated beans at startup are infrastructure beans created
 * before the application's beans; they read the order from the environment and look the
 * template up on the first call, so that they pull no other beans forward.
 * <p>
 * With {@code zklock.advice-mode=aspectj} the advisor is left out: the aspects of the
 * zklock-aspects module, woven into the application, call the same advice instead.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ZooKeeperAutoConfiguration.class)
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBean(CuratorFramework.class)
@EnableConfigurationProperties(ZkLockProperties.class)
@Import(AdvisorAutoProxyRegistrar.class)
public final class ZkLockAutoConfiguration {

	private static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

	@Bean
	@ConditionalOnMissingBean
	ZkLockTemplate zkLockTemplate(CuratorFramework client, ZkLockProperties properties,
			ObjectProvider<LockCallListener> listeners, BeanFactory beanFactory, InstanceParticipant zklockParticipant) {
		ZkLockProperties.Lock lock = properties.getLock();
		ZkLockPropertyChecks.checkLock(lock);
		ZkLockTemplate template = new ZkLockTemplate(client, lock.getBasePath(), lock.getWaitTime(),
				lock.isInterruptOnLost(), LockCallListener.of(listeners.orderedStream().toList()), lockSettings(lock));
		template.setParticipantId(zklockParticipant.id());
		Executor executor = asyncExecutor(lock.getAsyncExecutor(), beanFactory);
		if (executor != null) {
			template.setAsyncExecutor(executor);
		}
		return template;
	}

	@Bean
	@ConditionalOnMissingBean
	InstanceParticipant zklockParticipant(Environment environment) {
		return new InstanceParticipant(ZkLeaderAutoConfiguration.participantId(environment));
	}

	/**
	 * The instance's control node, through which another instance's forced release reaches this
	 * instance's holders at once.
	 */
	@Bean(initMethod = "start", destroyMethod = "close")
	@ConditionalOnMissingBean
	InstanceControl zklockInstanceControl(CuratorFramework client, ZkLockProperties properties,
			ZkLockTemplate zkLockTemplate, ObjectProvider<ForcedReleaseListener> listener) {
		return new InstanceControl(client, properties.getLock().getBasePath(), zkLockTemplate,
				listener.getIfAvailable(() -> ForcedReleaseListener.NONE));
	}

	/**
	 * Warnings of locks held longer than {@code zklock.lock.long-hold-warning}.
	 */
	@Bean(initMethod = "start", destroyMethod = "close")
	@ConditionalOnMissingBean
	@ConditionalOnProperty("zklock.lock.long-hold-warning")
	LongHoldWarnings zklockLongHoldWarnings(ZkLockTemplate zkLockTemplate, ZkLockProperties properties) {
		return new LongHoldWarnings(zkLockTemplate, Objects.requireNonNull(properties.getLock().getLongHoldWarning()));
	}

	private static @Nullable Executor asyncExecutor(@Nullable String name, BeanFactory beanFactory) {
		if (name == null) {
			return beanFactory.containsBean(APPLICATION_TASK_EXECUTOR)
					&& beanFactory.isTypeMatch(APPLICATION_TASK_EXECUTOR, Executor.class)
							? beanFactory.getBean(APPLICATION_TASK_EXECUTOR, Executor.class) : null;
		}
		if (!beanFactory.containsBean(name) || !beanFactory.isTypeMatch(name, Executor.class)) {
			throw new IllegalStateException("'zklock.lock.async-executor' names '" + name
					+ "', but there is no Executor bean of that name; define it, fix the name, or remove the property "
					+ "to use the application's task executor");
		}
		return beanFactory.getBean(name, Executor.class);
	}

	/**
	 * The reactive form of the template, when the application has Project Reactor.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "reactor.core.publisher.Mono")
	static class ReactiveTemplateConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ReactiveZkLockTemplate reactiveZkLockTemplate(ZkLockTemplate zkLockTemplate) {
			return new ReactiveZkLockTemplate(zkLockTemplate);
		}

	}

	private static LockSettings lockSettings(ZkLockProperties.Lock lock) {
		ZkLockProperties.Lock.Handoff handoff = lock.getHandoff();
		ZkLockProperties.Lock.Keep keep = lock.getKeep();
		return new LockSettings(handoff.isEnabled(), handoff.getMaxGrants(), handoff.getMaxTime(), keep.getIdleTime(),
				keep.getMaxKeys(), lock.getNodeNames());
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static LockSpecs zklockLockSpecs(ConfigurableListableBeanFactory beanFactory, Environment environment) {
		return new LockSpecs(beanFactory, AdviceModes.of(environment));
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static ZkLockedBeanPostProcessor zklockLockedBeanPostProcessor(LockSpecs zklockLockSpecs) {
		return new ZkLockedBeanPostProcessor(zklockLockSpecs);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnProperty(name = AdviceModes.PROPERTY, havingValue = "proxy", matchIfMissing = true)
	static DefaultPointcutAdvisor zklockLockedAdvisor(LockSpecs zklockLockSpecs,
			ObjectProvider<ZkLockTemplate> template, Environment environment) {
		return zklockLockSpecs.advisor(template::getObject, lockProperties(environment).getOrder());
	}

	private static ZkLockProperties.Lock lockProperties(Environment environment) {
		return Binder.get(environment).bind("zklock.lock", ZkLockProperties.Lock.class)
			.orElseGet(ZkLockProperties.Lock::new);
	}

}
