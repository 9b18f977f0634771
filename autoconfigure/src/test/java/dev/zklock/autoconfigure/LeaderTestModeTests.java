package dev.zklock.autoconfigure;

import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.NotLeaderException;
import dev.zklock.ZkLeadership;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.leader.FixedLeadership;
import dev.zklock.leader.LeaderElections;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code zklock.leader.test-mode}: leader-only code under test always runs, never runs (both
 * without ZooKeeper), or runs where a real election says.
 */
@Timeout(120)
class LeaderTestModeTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLeaderAutoConfiguration.class))
		.withBean(ReportJob.class);

	@Test
	void alwaysLeadsWithoutZooKeeper() {
		this.contextRunner.withPropertyValues("zklock.enabled=false", "zklock.leader.test-mode=always").run((context) -> {
			assertThat(context).doesNotHaveBean(CuratorFramework.class).hasSingleBean(FixedLeadership.class);
			ReportJob job = context.getBean(ReportJob.class);
			assertThat(job.run()).isEqualTo("ran");
			assertThat(job.runOrThrow()).isEqualTo("ran");
			assertThat(job.runs()).isEqualTo(2);
			ZkLeadership leadership = context.getBean(ZkLeadership.class);
			assertThat(leadership.groups()).containsExactly("reports");
			assertThat(leadership.isLeader("reports")).isTrue();
			assertThat(leadership.currentLeader("reports")).contains(leadership.participantId());
			assertThat(leadership.epoch("reports")).hasValue(1);
			assertThat(leadership.yieldLeadership("reports")).isTrue();
			assertThat(leadership.isLeader("reports")).as("a lone participant leads again").isTrue();
			assertThat(leadership.epoch("reports")).as("in a new term").hasValue(2);
		});
	}

	@Test
	void neverLeadsWithoutZooKeeper() {
		this.contextRunner.withPropertyValues("zklock.enabled=false", "zklock.leader.test-mode=never").run((context) -> {
			ReportJob job = context.getBean(ReportJob.class);
			assertThat(job.run()).as("skipped").isNull();
			assertThatExceptionOfType(NotLeaderException.class).isThrownBy(job::runOrThrow)
				.withMessageContaining("group 'reports'")
				.withMessageContaining("zklock.leader.test-mode is NEVER");
			assertThat(job.runs()).isZero();
			ZkLeadership leadership = context.getBean(ZkLeadership.class);
			assertThat(leadership.isLeader("reports")).isFalse();
			assertThat(leadership.currentLeader("reports")).isEmpty();
			assertThat(leadership.epoch("reports")).isEmpty();
			assertThat(leadership.yieldLeadership("reports")).isFalse();
		});
	}

	@Test
	void electionIsTheDefaultAndNeedsAClient() {
		this.contextRunner.withPropertyValues("zklock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ZkLeadership.class));
		this.contextRunner.withPropertyValues("zklock.enabled=false", "zklock.leader.test-mode=election")
			.run((context) -> assertThat(context).doesNotHaveBean(ZkLeadership.class));
	}

	@Nested
	@EmbeddedZooKeeper
	class WithZooKeeper {

		@Test
		void fixedModeWinsOverARealClient(ZooKeeperTestServer server) {
			LeaderTestModeTests.this.contextRunner
				.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.leader.test-mode=never")
				.run((context) -> {
					assertThat(context).hasSingleBean(CuratorFramework.class).hasSingleBean(FixedLeadership.class);
					assertThat(context.getBean(ReportJob.class).run()).isNull();
				});
		}

		@Test
		void electionModeElectsExactlyOneOfTwoInstances(ZooKeeperTestServer server) {
			ApplicationContextRunner runner = LeaderTestModeTests.this.contextRunner.withPropertyValues(
					"zklock.connect-string=" + server.getConnectString(), "zklock.session-timeout=2s",
					"zklock.leader.test-mode=election");
			runner.run((first) -> runner.run((second) -> {
				assertThat(first.getBean(ZkLeadership.class)).isInstanceOf(LeaderElections.class);
				await().until(() -> leads(first) != leads(second));
				ReportJob firstJob = first.getBean(ReportJob.class);
				ReportJob secondJob = second.getBean(ReportJob.class);
				firstJob.run();
				secondJob.run();
				assertThat(firstJob.runs() + secondJob.runs()).as("ran on exactly one instance").isEqualTo(1);
				ConfigurableApplicationContext leader = leads(first) ? first : second;
				ConfigurableApplicationContext other = (leader == first) ? second : first;
				leader.getBean(ZkLeadership.class).yieldLeadership("reports");
				await().until(() -> leads(other));
				assertThat(leads(leader)).isFalse();
			}));
		}

	}

	private static boolean leads(ConfigurableApplicationContext context) {
		return context.getBean(ZkLeadership.class).isLeader("reports");
	}

	static class ReportJob {

		private final AtomicInteger runs = new AtomicInteger();

		public int runs() {
			return this.runs.get();
		}

		@ZkLeader(group = "reports")
		public String run() {
			this.runs.incrementAndGet();
			return "ran";
		}

		@ZkLeader(group = "reports", whenNotLeader = WhenNotLeader.THROW)
		public String runOrThrow() {
			this.runs.incrementAndGet();
			return "ran";
		}

	}

}
