package dev.zklock.autoconfigure;

import dev.zklock.ZkLeadership;
import dev.zklock.leader.FixedLeadership;
import dev.zklock.leader.LeaderComponents;
import dev.zklock.leader.LeaderElections;
import dev.zklock.leader.LeaderMethods;
import dev.zklock.leader.LeaderTestMode;
import dev.zklock.leader.ParticipantIds;
import dev.zklock.leader.ZkLeaderBeanPostProcessor;
import dev.zklock.leader.ZkLeaderComponentPostProcessor;
import dev.zklock.support.AdvisorAutoProxyRegistrar;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Auto-configuration of leader election: a {@link ZkLeadership} bean taking part in one
 * election per group, the advice that runs {@code @ZkLeader} methods only on the leader of
 * their group, and the start and stop of {@code @ZkLeaderComponent} beans with the leadership.
 * <p>
 * The advisor, and the post-processor that checks annotated beans at startup, are
 * infrastructure beans created before the application's beans; they read the few properties
 * they need from the environment and look the {@link ZkLeadership} bean up on the first call, so
 * that they pull no application beans forward. With {@code zklock.advice-mode=aspectj} the
 * advisor is left out: the aspects of the zklock-aspects module call the same advice instead.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class })
@ConditionalOnClass(CuratorFramework.class)
@Conditional(OnClientOrLeaderTestModeCondition.class)
@EnableConfigurationProperties(ZkLockProperties.class)
@Import(AdvisorAutoProxyRegistrar.class)
public final class ZkLeaderAutoConfiguration {

	private static final Log logger = LogFactory.getLog(ZkLeaderAutoConfiguration.class);

	private static final String DEFAULT_APPLICATION_NAME = "application";

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static LeaderMethods zklockLeaderMethods(Environment environment) {
		String defaultGroup = leaderProperties(environment).getDefaultGroup();
		return new LeaderMethods(StringUtils.hasText(defaultGroup) ? defaultGroup : applicationName(environment),
				environment::resolveRequiredPlaceholders);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static ZkLeaderBeanPostProcessor zklockLeaderBeanPostProcessor(LeaderMethods zklockLeaderMethods,
			Environment environment) {
		return new ZkLeaderBeanPostProcessor(zklockLeaderMethods, AdviceModes.of(environment));
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnProperty(name = AdviceModes.PROPERTY, havingValue = "proxy", matchIfMissing = true)
	static DefaultPointcutAdvisor zklockLeaderAdvisor(LeaderMethods zklockLeaderMethods,
			ObjectProvider<ZkLeadership> leadership, Environment environment) {
		return zklockLeaderMethods.advisor(leadership::getObject, leaderProperties(environment).getOrder());
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static LeaderComponents zklockLeaderComponents(ObjectProvider<ZkLeadership> leadership, Environment environment) {
		ZkLockProperties.Leader leader = leaderProperties(environment);
		ZkLockPropertyChecks.checkLeader(leader);
		return new LeaderComponents(leadership::getIfAvailable, leader.getComponentStopTimeout());
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static ZkLeaderComponentPostProcessor zklockLeaderComponentPostProcessor(LeaderMethods zklockLeaderMethods,
			LeaderComponents zklockLeaderComponents) {
		return new ZkLeaderComponentPostProcessor(zklockLeaderMethods, zklockLeaderComponents);
	}

	@Bean
	@ConditionalOnMissingBean(ZkLeadership.class)
	@ConditionalOnBean(CuratorFramework.class)
	@ConditionalOnProperty(name = "zklock.leader.test-mode", havingValue = "election", matchIfMissing = true)
	LeaderElections zkLeadership(CuratorFramework client, ZkLockProperties properties,
			LeaderMethods zklockLeaderMethods, ApplicationEventPublisher publisher, Environment environment,
			ObjectProvider<InstanceParticipant> participant) {
		ZkLockProperties.Leader leader = properties.getLeader();
		return new LeaderElections(client, leader.getBasePath(), participantId(leader, environment, participant),
				properties.getConnectionTimeout(), publisher, zklockLeaderMethods, leader.getGroups());
	}

	@Bean
	@ConditionalOnMissingBean(ZkLeadership.class)
	@Conditional(OnLeaderTestModeCondition.class)
	FixedLeadership zkFixedLeadership(ZkLockProperties properties, LeaderMethods zklockLeaderMethods,
			Environment environment) {
		ZkLockProperties.Leader leader = properties.getLeader();
		logger.warn("zklock.leader.test-mode is " + leader.getTestMode() + ": this instance "
				+ ((leader.getTestMode() == LeaderTestMode.ALWAYS) ? "leads every group" : "leads no group")
				+ " without an election (for tests only)");
		return new FixedLeadership(leader.getTestMode(), participantId(leader, environment), zklockLeaderMethods,
				leader.getGroups());
	}

	private static String participantId(ZkLockProperties.Leader leader, Environment environment) {
		String participantId = leader.getParticipantId();
		return StringUtils.hasText(participantId) ? participantId : ParticipantIds.next(applicationName(environment));
	}

	/**
	 * Return the participant id of the elections: the one the auto-configured lock template's
	 * nodes name, when locks are auto-configured, so that one instance has one id.
	 */
	private static String participantId(ZkLockProperties.Leader leader, Environment environment,
			ObjectProvider<InstanceParticipant> participant) {
		InstanceParticipant shared = participant.getIfUnique();
		return (shared != null) ? shared.id() : participantId(leader, environment);
	}

	/**
	 * Return the participant id of an instance, as the auto-configuration gives it to the lock
	 * template and the elections.
	 */
	static String participantId(Environment environment) {
		return participantId(leaderProperties(environment), environment);
	}

	private static ZkLockProperties.Leader leaderProperties(Environment environment) {
		return Binder.get(environment)
			.bind("zklock.leader", ZkLockProperties.Leader.class)
			.orElseGet(ZkLockProperties.Leader::new);
	}

	private static String applicationName(Environment environment) {
		String name = environment.getProperty("spring.application.name");
		return StringUtils.hasText(name) ? name : DEFAULT_APPLICATION_NAME;
	}

}
