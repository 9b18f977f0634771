package dev.zklock.actuate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the ZooKeeper connection that locks and leadership depend on: UP while connected,
 * OUT_OF_SERVICE while the connection is suspended (held locks are in doubt, no leadership),
 * DOWN once the session is lost or the client is closed.
 *
 * @since 0.1.0
 */
public class ZooKeeperHealthIndicator extends AbstractHealthIndicator {

	private final ConnectionStatus status;

	/**
	 * Create an indicator that follows the client's connection from now on.
	 * @param client the client
	 */
	public ZooKeeperHealthIndicator(CuratorFramework client) {
		super("ZooKeeper health check failed");
		this.status = new ConnectionStatus(client);
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws Exception {
		builder.withDetail("connectString", this.status.connectString());
		builder.withDetail("transport", this.status.transport());
		if (this.status.isClosed()) {
			builder.down().withDetail("state", ConnectionStatus.CLOSED);
			return;
		}
		boolean connected = this.status.isConnected();
		ConnectionState state = this.status.lastState();
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
		String sessionId = this.status.sessionId();
		if (sessionId != null) {
			builder.withDetail("sessionId", sessionId)
				.withDetail("sessionTimeout", this.status.sessionTimeoutMillis() + "ms")
				.withDetail("authenticatedAs", this.status.authenticatedAs());
		}
	}

}
