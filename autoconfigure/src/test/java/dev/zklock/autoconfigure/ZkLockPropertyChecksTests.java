package dev.zklock.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.zklock.ZkLockTemplate;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code zklock.*} setting checked at startup: a value zklock cannot use fails the
 * startup with a failure analysis naming the property and the fix, an unknown host fails before
 * the connection timeout, and a property nothing binds is reported.
 */
@EmbeddedZooKeeper
@ExtendWith(OutputCaptureExtension.class)
class ZkLockPropertyChecksTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(ZooKeeperAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkLeaderAutoConfiguration.class));

	@Test
	void negativeOrZeroTimeoutsFailNamingTheProperty(ZooKeeperTestServer server) {
		assertRefused(server, "zklock.session-timeout=-1s", "'zklock.session-timeout'", "-1000ms", "must be positive");
		assertRefused(server, "zklock.session-timeout=0", "'zklock.session-timeout'", "0ms", "must be positive");
		assertRefused(server, "zklock.connection-timeout=-2s", "'zklock.connection-timeout'", "-2000ms",
				"must be positive");
		assertRefused(server, "zklock.retry.base-sleep=0ms", "'zklock.retry.base-sleep'", "0ms", "must be positive");
		assertRefused(server, "zklock.retry.max-retries=-1", "'zklock.retry.max-retries'", "-1", "must not be negative");
		assertRefused(server, "zklock.lock.handoff.max-time=-1ms", "'zklock.lock.handoff.max-time'", "-1ms",
				"must not be negative");
		assertRefused(server, "zklock.leader.component-stop-timeout=-1s", "'zklock.leader.component-stop-timeout'",
				"-1000ms", "must not be negative");
		assertRefused(server, "zklock.lock.long-hold-warning=0s", "'zklock.lock.long-hold-warning'", "0ms",
				"must be positive");
	}

	@Test
	void retryMaxSleepBelowItsBaseSleepFails(ZooKeeperTestServer server) {
		assertRefused(server, "zklock.retry.max-sleep=50ms", "'zklock.retry.max-sleep'", "50ms",
				"shorter than 'zklock.retry.base-sleep' (100ms)");
	}

	@Test
	void lockWaitTimeIsCheckedAsTheAnnotationChecksIt(ZooKeeperTestServer server) {
		FailureAnalysis analysis = assertRefused(server, "zklock.lock.wait-time=-5s", "'zklock.lock.wait-time'",
				"-5000ms", "only -1 (wait forever) may be");
		assertThat(analysis.getAction()).contains("'-1'").contains("'0'");
		this.contextRunner
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.lock.wait-time=-1")
			.run((context) -> assertThat(context.getBean(ZkLockTemplate.class).getDefaultWaitTime())
				.isEqualTo(Duration.ofMillis(-1)));
		this.contextRunner
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.lock.wait-time=0")
			.run((context) -> assertThat(context.getBean(ZkLockTemplate.class).getDefaultWaitTime()).isZero());
	}

	@Test
	void sessionTimeoutBelowTheConnectionTimeoutIsWarnedOfWithTheReason(ZooKeeperTestServer server,
			CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(), "zklock.session-timeout=4s",
					"zklock.connection-timeout=6s")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("zklock.session-timeout (4000ms) is shorter than zklock.connection-timeout (6000ms)")
			.contains("after its session, and the locks and leadership it carried, have expired")
			.contains("Set zklock.connection-timeout to at most the session timeout");
	}

	@Test
	void anUnknownHostFailsAtOnceNamingTheHost() {
		for (String connectString : new String[] { "nohost:2181", "nohost.invalid:2181" }) {
			String host = connectString.substring(0, connectString.indexOf(':'));
			this.contextRunner.withPropertyValues("zklock.connect-string=" + connectString).run((context) -> {
				assertThat(context).hasFailed();
				// Not ZooKeeperUnavailableException, which only comes once the connection timeout is over.
				assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidConnectStringException.class);
				FailureAnalysis analysis = new InvalidConnectStringFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("host '" + host + "' is unknown");
				assertThat(analysis.getAction()).contains("zklock.connect-string");
			});
		}
	}

	@Test
	void aConnectStringWithOneKnownHostIsTried(ZooKeeperTestServer server) {
		this.contextRunner.withPropertyValues("zklock.connect-string=nohost.invalid:2181," + server.getConnectString())
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void anUnknownHostIsLeftToTheClientWithoutFailFast() {
		this.contextRunner
			.withPropertyValues("zklock.connect-string=nohost.invalid:2181", "zklock.fail-fast=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aConnectStringBesideTheEmbeddedServerFails() {
		this.contextRunner
			.withPropertyValues("zklock.embedded.enabled=true", "zklock.connect-string=nohost.invalid:2181")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidZkLockPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("'zklock.connect-string'")
					.contains("nohost.invalid:2181")
					.contains("'zklock.embedded.enabled=true'");
				assertThat(analysis.getAction()).contains("Remove 'zklock.connect-string'")
					.contains("'zklock.embedded.enabled=false'");
			});
	}

	@Test
	void propertiesThatNothingBindsAreWarnedOfWithTheNearestKnownOne(ZooKeeperTestServer server,
			CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("zklock.connect-string=" + server.getConnectString(),
					"zklock.zookeeper.connect-string=" + server.getConnectString(), "zklock.sesion-timeout=5s",
					"zklock.leader.min-participants.orders=2", "zklock.acl.readers[0]=world:anyone",
					"zklock.test.scratch-dir=target/elsewhere")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output)
			.contains("Property 'zklock.zookeeper.connect-string' is not a zklock property and is ignored; "
					+ "did you mean 'zklock.connect-string'?")
			.contains("Property 'zklock.sesion-timeout' is not a zklock property and is ignored; "
					+ "did you mean 'zklock.session-timeout'?")
			.doesNotContain("'zklock.leader.min-participants.orders'")
			.doesNotContain("'zklock.acl.readers[0]'")
			.doesNotContain("'zklock.test.scratch-dir'")
			.doesNotContain("Property 'zklock.connect-string'");
	}

	private FailureAnalysis assertRefused(ZooKeeperTestServer server, String property, String... described) {
		FailureAnalysis[] analysis = new FailureAnalysis[1];
		this.contextRunner.withPropertyValues("zklock.connect-string=" + server.getConnectString(), property)
			.run((context) -> {
				assertThat(context).hasFailed();
				analysis[0] = new InvalidZkLockPropertyFailureAnalyzer().analyze(context.getStartupFailure());
			});
		assertThat(analysis[0]).as(property).isNotNull();
		assertThat(analysis[0].getDescription()).contains(described);
		String name = described[0];
		assertThat(analysis[0].getAction()).as("action of " + property).contains(name).isNotEqualTo(
				analysis[0].getDescription());
		return analysis[0];
	}

}
