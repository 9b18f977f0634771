package dev.zklock.sample;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest
class InventoryApplicationTests {

	@Autowired
	private CuratorFramework client;

	@Test
	void startsOnTheEmbeddedZooKeeper() {
		assertThat(this.client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
		assertThat(this.client.getZookeeperClient().isConnected()).isTrue();
	}

}
