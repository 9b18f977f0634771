package dev.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.zklock.support.ZooKeeperServerVersions;
import dev.zklock.test.EmbeddedZooKeeper;
import dev.zklock.test.ZooKeeperTestServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server the tests run against is the one the build says: the ZooKeeper version the starter
 * brings, in process, or, in the build's runs against each server line
 * ({@value ZooKeeperTestServer#SERVER_VERSION_PROPERTY}), an ensemble of that version; and the
 * startup check lets it through.
 */
@EmbeddedZooKeeper
@Timeout(60)
class ServerVersionTests {

	@Test
	void theServerIsOfTheVersionTheBuildNames(ZooKeeperTestServer server) {
		String expected = (ZooKeeperTestServer.serverVersion() != null) ? ZooKeeperTestServer.serverVersion()
				: Version.getFullVersion().replaceFirst("[-, ].*", "");
		assertThat(ZooKeeperServerVersions.read(server.getConnectString())).isEqualTo(expected);
	}

	@Test
	void theStartupCheckLetsTheServerThrough(ZooKeeperTestServer server) {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class))
			.withPropertyValues("zklock.connect-string=" + server.getConnectString())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient().isConnected()).isTrue();
			});
	}

}
