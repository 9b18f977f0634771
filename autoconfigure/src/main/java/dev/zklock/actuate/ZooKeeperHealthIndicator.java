package dev.zklock.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.jspecify.annotations.Nullable;

import dev.zklock.lock.LongHold;
import dev.zklock.lock.LongHoldWarnings;

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

	private final @Nullable LongHoldWarnings longHolds;

	/**
	 * Create an indicator that follows the client's connection from now on.
	 * @param client the client
	 */
	public ZooKeeperHealthIndicator(CuratorFramework client) {
		this(client, null);
	}

	/**
	 * Create an indicator that also lists, in its details, the locks held longer than
	 * {@code zklock.lock.long-hold-warning} (the status does not change for them).
	 * @param client the client
	 * @param longHolds the long holds, {@code null} for none
	 * @since 0.2.0
	 */
	public ZooKeeperHealthIndicator(CuratorFramework client, @Nullable LongHoldWarnings longHolds) {
		super("ZooKeeper health check failed");
		this.status = new ConnectionStatus(client);
		this.longHolds = longHolds;
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
		LongHoldWarnings longHolds = this.longHolds;
		if (longHolds != null) {
			List<Map<String, Object>> holds = new ArrayList<>();
			for (LongHold hold : longHolds.current()) {
				Map<String, Object> detail = new LinkedHashMap<>();
				detail.put("key", hold.key());
				detail.put("mode", hold.mode());
				if (hold.call() != null) {
					detail.put("call", hold.call());
				}
				detail.put("thread", hold.thread());
				detail.put("since", hold.since().toString());
				holds.add(detail);
			}
			builder.withDetail("longHolds", holds);
		}
		String sessionId = this.status.sessionId();
		if (sessionId != null) {
			builder.withDetail("sessionId", sessionId)
				.withDetail("sessionTimeout", this.status.sessionTimeoutMillis() + "ms")
				.withDetail("authenticatedAs", this.status.authenticatedAs());
		}
	}

}
