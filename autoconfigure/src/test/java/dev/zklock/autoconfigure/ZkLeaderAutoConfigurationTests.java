package dev.zklock.autoconfigure;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import dev.zklock.ZkLeadership;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.leader.LeaderElections;
import dev.zklock.leader.ZkLeaderBeanPostProcessor;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.EmbeddedZooKeeperInitializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.Ordered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EmbeddedZooKeeper
@ExtendWith(OutputCaptureExtension.class)
class ZkLeaderAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(EmbeddedZooKeeperInitializer.of(ZkLeaderAutoConfigurationTests.class))
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLeaderAutoConfiguration.class))
		.withPropertyValues("zklock.session-timeout=2s");

	@Test
	void defaultsGiveLeadershipAdvisorAndValidation() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ZkLeadership.class)
				.hasBean("zklockLeaderAdvisor")
				.hasSingleBean(ZkLeaderBeanPostProcessor.class);
			assertThat(context.getBean(ZkLeadership.class)).isInstanceOf(LeaderElections.class);
			assertThat(context.getBean("zklockLeaderAdvisor", DefaultPointcutAdvisor.class).getOrder())
				.isEqualTo(Ordered.LOWEST_PRECEDENCE - 200);
			for (String name : List.of("zklockLeaderAdvisor", "zklockLeaderBeanPostProcessor", "zklockLeaderMethods")) {
				assertThat(context.getBeanFactory().getBeanDefinition(name).getRole()).as(name)
					.isEqualTo(BeanDefinition.ROLE_INFRASTRUCTURE);
			}
			assertThat(context.getBean(ZkLeadership.class).participantId()).startsWith("application@");
			assertThat(context.getBean(ZkLeadership.class).groups()).isEmpty();
		});
	}

	@Test
	void advisorOrderCanBeConfigured() {
		this.contextRunner.withPropertyValues("zklock.leader.order=42")
			.run((context) -> assertThat(context.getBean("zklockLeaderAdvisor", DefaultPointcutAdvisor.class).getOrder())
				.isEqualTo(42));
	}

	@Test
	void participantIdCanBeConfigured() {
		this.contextRunner.withPropertyValues("zklock.leader.participant-id=inventory-blue")
			.run((context) -> assertThat(context.getBean(ZkLeadership.class).participantId())
				.isEqualTo("inventory-blue"));
	}

	@Test
	void defaultGroupIsTheApplicationName() {
		this.contextRunner.withPropertyValues("spring.application.name=inventory")
			.withBean(DefaultGroupJob.class)
			.run((context) -> {
				ZkLeadership leadership = context.getBean(ZkLeadership.class);
				assertThat(leadership.participantId()).startsWith("inventory@");
				assertThat(leadership.groups()).containsExactly("inventory");
				await().until(() -> leadership.isLeader("inventory"));
			});
	}

	@Test
	void defaultGroupCanBeConfigured() {
		this.contextRunner.withPropertyValues("spring.application.name=inventory", "zklock.leader.default-group=jobs")
			.withBean(DefaultGroupJob.class)
			.run((context) -> assertThat(context.getBean(ZkLeadership.class).groups()).containsExactly("jobs"));
	}

	@Test
	void furtherGroupsAreJoinedAtStartup() {
		this.contextRunner.withPropertyValues("zklock.leader.groups=reports,billing").run((context) -> {
			ZkLeadership leadership = context.getBean(ZkLeadership.class);
			assertThat(leadership.groups()).containsExactly("billing", "reports");
			await().until(() -> leadership.isLeader("reports") && leadership.isLeader("billing"));
		});
	}

	@Test
	void backsOffWithoutACuratorFramework() {
		this.contextRunner.withPropertyValues("zklock.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(ZkLeadership.class)
				.doesNotHaveBean("zklockLeaderAdvisor")
				.doesNotHaveBean(ZkLeaderBeanPostProcessor.class);
		});
	}

	@Test
	void userDefinedLeadershipIsUsedByTheAdvice() {
		this.contextRunner.withBean(ZkLeadership.class, AlwaysLeader::new)
			.withBean(DefaultGroupJob.class)
			.run((context) -> {
				assertThat(context).getBean(ZkLeadership.class).isInstanceOf(AlwaysLeader.class);
				assertThat(context.getBean(DefaultGroupJob.class).run()).isEqualTo("ran");
			});
	}

	@Test
	void infrastructureBeansPullNoBeansForward(CapturedOutput output) {
		this.contextRunner.withBean(DefaultGroupJob.class)
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain("is not eligible for getting processed by all BeanPostProcessors");
	}

	static class DefaultGroupJob {

		@ZkLeader
		public String run() {
			return "ran";
		}

	}

	static class AlwaysLeader implements ZkLeadership {

		@Override
		public String participantId() {
			return "me";
		}

		@Override
		public Set<String> groups() {
			return Set.of();
		}

		@Override
		public boolean isLeader(String group) {
			return true;
		}

		@Override
		public Optional<String> currentLeader(String group) {
			return Optional.of("me");
		}

		@Override
		public List<String> participants(String group) {
			return List.of("me");
		}

		@Override
		public OptionalLong epoch(String group) {
			return OptionalLong.of(1);
		}

		@Override
		public boolean yieldLeadership(String group) {
			return false;
		}

	}

}
