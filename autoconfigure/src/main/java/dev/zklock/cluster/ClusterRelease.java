package dev.zklock.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import dev.zklock.ZkLockException;
import dev.zklock.lock.LockKeys;

/**
 * Force-releases lock nodes of any instance: one node, or every node of one instance on a key.
 * The owning instance is told first, through its control node ({@link InstanceControl}), and
 * confirms once its holders have lost the nodes; then the nodes are deleted. An owner that does
 * not confirm within the wait (paused, cut off from ZooKeeper, or without a control node) loses
 * its nodes all the same: the next holder's fencing token is higher than its, so a fenced
 * resource rejects its late writes.
 *
 * @since 0.2.0
 */
public class ClusterRelease {

	private static final Log logger = LogFactory.getLog(ClusterRelease.class);

	private static final long POLL_MILLIS = 20;

	private final CuratorFramework client;

	private final String lockBasePath;

	private final ClusterView view;

	private final String participant;

	private final Duration ownerWait;

	/**
	 * Create a releaser.
	 * @param client the started client
	 * @param lockBasePath {@code zklock.lock.base-path}
	 * @param participant the participant id of this instance, named in the release
	 * @param ownerWait how long to wait for an owner to confirm
	 */
	public ClusterRelease(CuratorFramework client, String lockBasePath, String participant, Duration ownerWait) {
		this.client = client;
		this.lockBasePath = ZKPaths.makePath(lockBasePath, "");
		this.view = new ClusterView(client, lockBasePath, null);
		this.participant = participant;
		this.ownerWait = ownerWait;
	}

	/**
	 * Release one node of a key, or every node of one instance on it.
	 * @param key the key
	 * @param node the node's name, or {@code null} to release by owner
	 * @param owner the owning instance's participant id, or {@code null} to release by node
	 * @return what was released (nothing when no node matches)
	 */
	public ForcedRelease release(String key, @Nullable String node, @Nullable String owner) {
		if ((node == null) == (owner == null)) {
			throw new IllegalArgumentException("Name either the node or the owner to release");
		}
		String keyPath = ZKPaths.makePath(this.lockBasePath, LockKeys.encode(key));
		Map<String, List<LockNodeView>> bySession = new LinkedHashMap<>();
		for (LockNodeView view : this.view.key(key).nodes()) {
			if (view.node().equals(node) || (owner != null && owner.equals(view.owner()))) {
				bySession.computeIfAbsent(view.session(), (session) -> new ArrayList<>()).add(view);
			}
		}
		List<String> released = new ArrayList<>();
		List<ForcedRelease.Owner> owners = new ArrayList<>();
		bySession.forEach((session, nodes) -> {
			String participant = nodes.get(0).owner();
			List<String> paths = nodes.stream().map((view) -> ZKPaths.makePath(keyPath, view.node())).toList();
			boolean told = participant != null && tell(participant, session, paths);
			for (String path : paths) {
				delete(path);
				released.add(ZKPaths.getNodeFromPath(path));
			}
			owners.add(new ForcedRelease.Owner((participant != null) ? participant : "", session, told));
			logger.warn("Force-released lock node(s) " + paths + " of '" + participant + "' (session 0x" + session
					+ ") on key '" + key + "'" + (told ? "; the owner confirmed that its holders know"
							: "; the owner did not confirm within " + this.ownerWait
									+ ": its late writes are left to the fencing tokens"));
		});
		return new ForcedRelease(key, released, owners);
	}

	/**
	 * Record the release in the owner's control node and wait for the owner to delete the notice.
	 */
	private boolean tell(String participant, String session, List<String> paths) {
		String control = ReleaseNotice.controlPath(this.lockBasePath, participant);
		try {
			if (this.client.checkExists().forPath(ZKPaths.makePath(control, ReleaseNotice.SESSION + session)) == null) {
				return false;
			}
			ReleaseNotice notice = new ReleaseNotice(Long.parseUnsignedLong(session, 16), this.participant, paths);
			String path = this.client.create()
				.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.forPath(ZKPaths.makePath(control, ReleaseNotice.NOTICE), notice.toBytes());
			long deadline = System.nanoTime() + this.ownerWait.toNanos();
			while (System.nanoTime() - deadline < 0) {
				if (this.client.checkExists().forPath(path) == null) {
					return true;
				}
				Thread.sleep(POLL_MILLIS);
			}
			delete(path);
			return false;
		}
		catch (KeeperException.NoNodeException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ZkLockException("Interrupted while telling '" + participant + "' of a forced release", ex);
		}
		catch (Exception ex) {
			throw new ZkLockException("Could not tell '" + participant + "' of a forced release: " + ex, ex);
		}
	}

	private void delete(String path) {
		try {
			this.client.delete().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			// gone already (the owner deletes a node it lost)
		}
		catch (Exception ex) {
			throw new ZkLockException("Could not delete " + path + ": " + ex, ex);
		}
	}

}
