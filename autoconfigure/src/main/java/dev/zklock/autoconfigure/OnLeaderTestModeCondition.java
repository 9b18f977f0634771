package dev.zklock.autoconfigure;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * Matches when {@code zklock.leader.test-mode} fixes the outcome of elections ({@code always} or
 * {@code never}).
 */
class OnLeaderTestModeCondition extends AnyNestedCondition {

	OnLeaderTestModeCondition() {
		super(ConfigurationPhase.PARSE_CONFIGURATION);
	}

	@ConditionalOnProperty(name = "zklock.leader.test-mode", havingValue = "always")
	static class Always {

	}

	@ConditionalOnProperty(name = "zklock.leader.test-mode", havingValue = "never")
	static class Never {

	}

}
