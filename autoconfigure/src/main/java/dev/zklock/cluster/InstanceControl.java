package dev.zklock.cluster;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;

import dev.zklock.ZkLockTemplate;

/**
 * This instance's control node, {@code <zklock.lock.base-path>/#instances/<participant>}: a
 * container holding an ephemeral node of the instance's session, watched by the instance, in
 * which another instance that force-releases one of this instance's lock nodes records the
 * release ({@link ReleaseNotice}). The instance learns it at once, whether or not it watches the
 * key: its holders of the released nodes lose their locks as on a lost session, and it deletes
 * the notice, which tells the releasing instance that its holders know.
 *
 * @since 0.2.0
 */
public class InstanceControl implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(InstanceControl.class);

	private final CuratorFramework client;

	private final ZkLockTemplate template;

	private final String controlPath;

	private final ForcedReleaseListener listener;

	private final ExecutorService thread = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "zklock-instance-control");
		thread.setDaemon(true);
		return thread;
	});

	private final Watcher watcher = (event) -> check();

	private final ConnectionStateListener connection = this::connectionChanged;

	/**
	 * Create the control of an instance.
	 * @param client the started client
	 * @param lockBasePath {@code zklock.lock.base-path}
	 * @param template the instance's lock template
	 * @param listener told how many held nodes each release took from this instance
	 */
	public InstanceControl(CuratorFramework client, String lockBasePath, ZkLockTemplate template,
			ForcedReleaseListener listener) {
		this.client = client;
		this.template = template;
		this.controlPath = ReleaseNotice.controlPath(lockBasePath, template.getParticipantId());
		this.listener = listener;
	}

	/**
	 * Create the session node and start watching; again whenever the session changes.
	 */
	public void start() {
		this.client.getConnectionStateListenable().addListener(this.connection);
		check();
	}

	private void connectionChanged(CuratorFramework client, ConnectionState state) {
		if (state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED) {
			check();
		}
	}

	private void check() {
		try {
			this.thread.execute(this::readNotices);
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	private void readNotices() {
		long session = this.template.sessionId();
		if (session == 0 || !this.client.getZookeeperClient().isConnected()) {
			return;
		}
		try {
			String sessionNode = ZKPaths.makePath(this.controlPath, ReleaseNotice.SESSION + Long.toHexString(session));
			if (this.client.checkExists().forPath(sessionNode) == null) {
				this.client.create()
					.creatingParentContainersIfNeeded()
					.withMode(CreateMode.EPHEMERAL)
					.forPath(sessionNode);
			}
			for (String child : this.client.getChildren().usingWatcher(this.watcher).forPath(this.controlPath)) {
				if (child.startsWith(ReleaseNotice.NOTICE)) {
					handle(ZKPaths.makePath(this.controlPath, child), session);
				}
			}
		}
		catch (KeeperException.NodeExistsException | KeeperException.NoNodeException ex) {
			check();
		}
		catch (Exception ex) {
			logger.debug("Could not read this instance's release notices (read again on reconnect): " + ex);
		}
	}

	private void handle(String path, long session) throws Exception {
		byte[] data;
		try {
			data = this.client.getData().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return;
		}
		ReleaseNotice notice = ReleaseNotice.parse(data);
		if (notice != null && notice.session() != session) {
			// Another session's: an instance of the same participant id, or ours before a new session.
			return;
		}
		if (notice != null) {
			String why = "an operator released its node from '" + notice.by() + "'";
			int lost = this.template.loseReleased(notice.nodes(), session, why);
			logger.warn("Lock node(s) " + notice.nodes() + " of this instance were force-released by '" + notice.by()
					+ "': " + lost + " held by this instance are lost");
			this.listener.lost(lost);
		}
		try {
			this.client.delete().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			// the releasing instance gave up waiting
		}
	}

	@Override
	public void close() {
		this.client.getConnectionStateListenable().removeListener(this.connection);
		this.thread.shutdownNow();
		try {
			this.thread.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
