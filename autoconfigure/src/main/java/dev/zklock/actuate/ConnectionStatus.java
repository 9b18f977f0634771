package dev.zklock.actuate;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ClientInfo;
import org.jspecify.annotations.Nullable;

import dev.zklock.support.ZooKeeperServerVersions;

/**
 * The state of a client's connection to ZooKeeper as operators see it: the last connection state
 * Curator reported, or {@code CLOSED} once the client is closed.
 */
final class ConnectionStatus implements ConnectionStateListener {

	static final String CLOSED = "CLOSED";

	private final CuratorFramework client;

	private volatile ConnectionState lastState;

	/**
	 * Whether the server knows {@code whoAmI} (ZooKeeper 3.7 and later), {@code null} until known.
	 */
	private volatile @Nullable Boolean whoAmIKnown;

	ConnectionStatus(CuratorFramework client) {
		this.client = client;
		this.lastState = isConnected() ? ConnectionState.CONNECTED : ConnectionState.LOST;
		client.getConnectionStateListenable().addListener(this);
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState newState) {
		this.lastState = newState;
	}

	boolean isClosed() {
		return this.client.getState() != CuratorFrameworkState.STARTED;
	}

	boolean isConnected() {
		return this.client.getZookeeperClient().isConnected();
	}

	ConnectionState lastState() {
		return this.lastState;
	}

	/**
	 * Return the last connection state's name, or {@value #CLOSED}.
	 */
	String state() {
		return isClosed() ? CLOSED : this.lastState.name();
	}

	String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

	/**
	 * Return the session id in hexadecimal, as ZooKeeper's logs show it, or {@code null} when
	 * not connected.
	 */
	@Nullable String sessionId() {
		if (isClosed() || !isConnected()) {
			return null;
		}
		try {
			return "0x" + Long.toHexString(this.client.getZookeeperClient().getZooKeeper().getSessionId());
		}
		catch (Exception ex) {
			return null;
		}
	}

	/**
	 * Return how the client reaches ZooKeeper: {@code TLS} or {@code plaintext}.
	 */
	String transport() {
		try {
			ZKClientConfig config = this.client.getZookeeperClient().getZooKeeper().getClientConfig();
			return (config != null && config.getBoolean(ZKClientConfig.SECURE_CLIENT)) ? "TLS" : "plaintext";
		}
		catch (Exception ex) {
			return "unknown";
		}
	}

	/**
	 * Return the identities the server knows this session by, as {@code scheme:user} (for
	 * example {@code x509:CN=orders} or {@code digest:orders}), never a secret; the address-based
	 * {@code ip} identity every client has is left out. Empty when not connected or
	 * unauthenticated, and against a server older than 3.7, which has no {@code whoAmI}: such a
	 * server closes the connection of a client that sends it a request it does not know, which
	 * would put every held lock in doubt. Its version is read once with {@code srvr} (plaintext
	 * connections only); when that says nothing, the first {@code whoAmI} that the server does not
	 * know is the last one sent.
	 */
	List<String> authenticatedAs() {
		if (isClosed() || !isConnected() || !whoAmIKnown()) {
			return List.of();
		}
		try {
			List<ClientInfo> infos = this.client.getZookeeperClient().getZooKeeper().whoAmI();
			if (infos == null) {
				return List.of();
			}
			return infos.stream()
				.filter((info) -> !"ip".equals(info.getAuthScheme()))
				.map((info) -> info.getAuthScheme() + ":" + info.getUser())
				.toList();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return List.of();
		}
		catch (KeeperException.UnimplementedException ex) {
			this.whoAmIKnown = false;
			return List.of();
		}
		catch (Exception ex) {
			return List.of();
		}
	}

	private boolean whoAmIKnown() {
		Boolean known = this.whoAmIKnown;
		if (known == null) {
			String version = "TLS".equals(transport()) ? null : ZooKeeperServerVersions.read(connectString());
			known = (version == null) || ZooKeeperServerVersions.isAtLeast(version, 3, 7);
			this.whoAmIKnown = known;
		}
		return known;
	}

	int sessionTimeoutMillis() {
		return this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
	}

}
