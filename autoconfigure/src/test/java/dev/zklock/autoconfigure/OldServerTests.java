package dev.zklock.autoconfigure;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.support.ZooKeeperServerVersions;
import dev.zklock.test.ZooKeeperEnsemble;
import dev.zklock.test.ZooKeeperServerJars;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ZooKeeper 3.4 server, too old for zklock (no container nodes, no {@code multi} that creates
 * them), run from its own jars as a separate process: the startup fails at once with the
 * server's version and the oldest version supported named, not at the first lock.
 */
@Timeout(120)
class OldServerTests {

	static final String OLD_VERSION = "3.4.14";

	private static ZooKeeperEnsemble server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class));

	@BeforeAll
	static void startServer() {
		server = ZooKeeperEnsemble.builder().servers(1).serverJars(ZooKeeperServerJars.folder(OLD_VERSION)).start();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void startupFailsNamingTheServersVersionAndTheOldestSupported() {
		String connectString = server.connectString();
		long start = System.nanoTime();
		this.contextRunner.withPropertyValues("zklock.connect-string=" + connectString).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
			Throwable failure = context.getStartupFailure();
			assertThat(failure).rootCause()
				.isInstanceOf(ZooKeeperServerTooOldException.class)
				.hasMessageContaining("version " + OLD_VERSION)
				.hasMessageContaining("ZooKeeper 3.6 or later")
				.hasMessageContaining("container");
			FailureAnalysis analysis = new ZooKeeperServerTooOldFailureAnalyzer().analyze(failure);
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains(connectString).contains(OLD_VERSION).contains("3.6");
			assertThat(analysis.getAction()).contains("zklock.connect-string").contains(connectString).contains("3.6");
		});
		// The failed startup closed its client: the server has no connection left from it (the one
		// connection it counts is the status query's own).
		await().atMost(Duration.ofSeconds(10)).until(() -> server.connections(1) == 1);
	}

	@Test
	void withoutFailFastTheApplicationStartsAsBefore() {
		this.contextRunner.withPropertyValues("zklock.connect-string=" + server.connectString(), "zklock.fail-fast=false")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(CuratorFramework.class));
	}

	@Test
	void versionIsReadFromTheSrvrReply() {
		assertThat(ZooKeeperServerVersions.parse("Zookeeper version: 3.4.14-4c25d480e66aadd371de8bd2fd8da255ac140bcf, "
				+ "built on 03/06/2019 16:18 GMT\nLatency min/avg/max: 0/0/0\n")).isEqualTo("3.4.14");
		assertThat(ZooKeeperServerVersions.parse("Zookeeper version: 3.6.4--d65253dcf68e9097c6e95a126463fd5fdeb4521c, "
				+ "built on 12/18/2022 18:10 GMT\n")).isEqualTo("3.6.4");
		assertThat(ZooKeeperServerVersions.parse("srvr is not executed because it is not in the whitelist.")).isNull();
	}

}
