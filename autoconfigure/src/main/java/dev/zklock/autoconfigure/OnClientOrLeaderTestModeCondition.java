package dev.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when there is a ZooKeeper client to elect leaders with, or when
 * {@code zklock.leader.test-mode} makes one unnecessary.
 */
class OnClientOrLeaderTestModeCondition extends AnyNestedCondition {

	OnClientOrLeaderTestModeCondition() {
		super(ConfigurationPhase.REGISTER_BEAN);
	}

	@ConditionalOnBean(CuratorFramework.class)
	static class Client {

	}

	@Conditional(OnLeaderTestModeCondition.class)
	static class TestMode {

	}

}
