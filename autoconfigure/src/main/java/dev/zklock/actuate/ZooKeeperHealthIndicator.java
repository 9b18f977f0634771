package dev.zklock.actuate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the ZooKeeper connection that locks and leadership depend on: UP while connected,
 * OUT_OF_SERVICE while the connection is suspended (held locks are in doubt, no leadership),
 * DOWN once the session is lost or the client is closed.
 *
 * @since 0.1.0
 */
public class ZooKeeperHealthIndicator extends AbstractHealthIndicator implements ConnectionStateListener {

	private final CuratorFramework client;

	private volatile ConnectionState lastState;

	public ZooKeeperHealthIndicator(CuratorFramework client) {
		super("ZooKeeper health check failed");
		this.client = client;
		this.lastState = client.getZookeeperClient().isConnected() ? ConnectionState.CONNECTED : ConnectionState.LOST;
		client.getConnectionStateListenable().addListener(this);
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState newState) {
		this.lastState = newState;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws Exception {
		builder.withDetail("connectString", this.client.getZookeeperClient().getCurrentConnectionString());
		if (this.client.getState() != CuratorFrameworkState.STARTED) {
			builder.down().withDetail("state", "CLOSED");
			return;
		}
		boolean connected = this.client.getZookeeperClient().isConnected();
		ConnectionState state = this.lastState;
		if (connected && state.isConnected()) {
			builder.up();
		}
		else if (state == ConnectionState.SUSPENDED || state == ConnectionState.READ_ONLY
				|| (connected && !state.isConnected())) {
			builder.outOfService();
		}
		else {
			builder.down();
		}
		builder.withDetail("state", state.name());
		if (connected) {
			builder.withDetail("sessionId", "0x" + Long.toHexString(this.client.getZookeeperClient().getZooKeeper().getSessionId()))
				.withDetail("sessionTimeout", this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs() + "ms");
		}
	}

}
