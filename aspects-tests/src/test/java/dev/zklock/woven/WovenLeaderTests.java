package dev.zklock.woven;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.zklock.ZkLeadership;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @ZkLeader} in AspectJ mode, on a class woven at compile time: two application contexts
 * take part in one election and call a leader-only method from inside their beans.
 */
@EmbeddedZooKeeper
class WovenLeaderTests {

	@Test
	void selfInvokedAndPrivateLeaderMethodsRunOnTheLeaderOnly(ZooKeeperTestServer server) {
		Queue<String> ran = new ConcurrentLinkedQueue<>();
		WovenLockTests.instance(server, "aspectj", new UnsafeCounter())
			.withBean(Reports.class, () -> new Reports("first", ran))
			.run((first) -> WovenLockTests.instance(server, "aspectj", new UnsafeCounter())
				.withBean(Reports.class, () -> new Reports("second", ran))
				.run((second) -> {
					await().atMost(Duration.ofSeconds(30))
						.until(() -> isLeader(first) || isLeader(second));
					String leader = isLeader(first) ? "first" : "second";
					assertThat(isLeader(first)).isNotEqualTo(isLeader(second));
					assertThat(AopUtils.isAopProxy(first.getBean(Reports.class))).isFalse();
					for (int i = 0; i < 3; i++) {
						first.getBean(Reports.class).tick();
						second.getBean(Reports.class).tick();
					}
					first.getBean(Reports.class).tickPrivately();
					second.getBean(Reports.class).tickPrivately();
					assertThat(List.copyOf(ran)).containsExactly(leader, leader, leader, leader + " (private)");
				}));
	}

	private static boolean isLeader(AssertableApplicationContext context) {
		return context.getBean(ZkLeadership.class).isLeader(Reports.GROUP);
	}

}
