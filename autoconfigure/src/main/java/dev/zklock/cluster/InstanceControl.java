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
import org.apache.zookeeper.data.Stat;

import dev.zklock.ZkLockTemplate;

/**
 * This instance's control node, {@code <zklock.lock.base-path>/#instances/<participant>}: a
 * container holding an ephemeral node of the instance's session, watched by the instance, in
 * which another instance that force-releases one of this instance's lock nodes records the
 * release ({@link ReleaseNotice}). The instance learns it at once, whether or not it watches the
 * key: none of the released nodes is granted again, its holders of them lose their locks as on a
 * lost session, the nodes are deleted, and it answers in the notice, which tells the releasing
 * instance that its holders know.
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
			logger.warn("Could not read this instance's release notices (read again on reconnect): " + ex);
		}
	}

	/**
	 * Apply one notice, once: a notice already answered is left to the instance that wrote it.
	 * The answer is written only after the nodes can no longer be granted and their holders lost
	 * them; the releasing instance deletes nothing of a live owner before it reads that answer.
	 */
	private void handle(String path, long session) throws Exception {
		Stat stat = new Stat();
		byte[] data;
		try {
			data = this.client.getData().storingStatIn(stat).forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return;
		}
		if (ReleaseNotice.answer(data) != null) {
			return;
		}
		ReleaseNotice notice = ReleaseNotice.parse(data);
		if (notice == null) {
			logger.warn("Could not read the release notice " + path + "; answered that it was refused");
			answer(path, ReleaseNotice.refused(data, "the notice could not be read"), stat.getVersion());
			return;
		}
		if (notice.session() != session) {
			// Another session's: an instance of the same participant id, or ours before a new
			// session (whose nodes went with it). The releasing instance removes it.
			return;
		}
		String why = "an operator released its node from '" + notice.by() + "'";
		int lost = this.template.loseReleased(notice.nodes(), session, why);
		logger.warn("Lock node(s) " + notice.nodes() + " of this instance were force-released by '" + notice.by()
				+ "': " + lost + " held by this instance are lost, none of them will be granted again");
		this.listener.lost(lost);
		answer(path, notice.confirmed(lost), stat.getVersion());
	}

	private void answer(String path, byte[] data, int version) throws Exception {
		try {
			this.client.setData().withVersion(version).forPath(path, data);
		}
		catch (KeeperException.NoNodeException | KeeperException.BadVersionException ex) {
			// the releasing instance gave up (its session ended), or another reader answered
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
