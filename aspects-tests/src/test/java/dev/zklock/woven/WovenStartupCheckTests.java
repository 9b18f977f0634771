package dev.zklock.woven;

import dev.zklock.support.InvalidAnnotationException;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;

import static dev.zklock.woven.WovenLockTests.instance;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The startup checks in AspectJ mode: a class that was not woven fails, and so does a bad key
 * expression on a woven private method.
 */
@EmbeddedZooKeeper
class WovenStartupCheckTests {

	@Test
	void anUnwovenClassFailsTheStartupInAspectjMode(ZooKeeperTestServer server) {
		instance(server, "aspectj", new UnsafeCounter()).withBean("unwoven", UnwovenService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidAnnotationException.class)
				.hasMessageContaining("UnwovenService.work() of bean 'unwoven'")
				.hasMessageContaining("was not woven with the zklock-aspects aspects");
		});
	}

	@Test
	void anUnwovenLeaderClassFailsTheStartupInAspectjMode(ZooKeeperTestServer server) {
		instance(server, "aspectj", new UnsafeCounter()).withBean("jobs", UnwovenLeaderJobs.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidAnnotationException.class)
				.hasMessageContaining("UnwovenLeaderJobs.purge() of bean 'jobs'")
				.hasMessageContaining("was not woven with the zklock-aspects aspects");
		});
	}

	@Test
	void aBadKeyExpressionStillFailsTheStartupInAspectjMode(ZooKeeperTestServer server) {
		instance(server, "aspectj", new UnsafeCounter()).withBean("badKey", BadKey.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidAnnotationException.class)
				.hasMessageContaining("BadKey.work(String) of bean 'badKey'")
				.hasMessageContaining("refers to #item, which the method does not have");
		});
	}

}
