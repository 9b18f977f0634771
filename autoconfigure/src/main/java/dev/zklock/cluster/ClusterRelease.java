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
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

import dev.zklock.ZkLockException;
import dev.zklock.lock.LockKeys;

/**
 * Force-releases lock nodes of any instance: one node, or every node of one instance on a key.
 * A node is never deleted while an owner that can be told may still grant it: the owning
 * instance is told through its control node ({@link InstanceControl}); it takes the nodes from
 * its holders, makes sure it never grants them again, deletes them and answers; only then does
 * the release report them released. An owner that does not answer within the wait (paused, cut
 * off from ZooKeeper, busy) keeps its nodes for now: the notice stays, and the owner applies it
 * as soon as it reads it, or the nodes go with its session. Only an owner without a control node
 * (not a zklock instance) has its nodes deleted without being told.
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
		this(client, lockBasePath, participant, ownerWait, null);
	}

	/**
	 * Create a releaser that reads a key's long queue on a listing session of its own.
	 * @param client the started client
	 * @param lockBasePath {@code zklock.lock.base-path}
	 * @param participant the participant id of this instance, named in the release
	 * @param ownerWait how long to wait for an owner to confirm
	 * @param listings the listing sessions, {@code null} for none
	 */
	public ClusterRelease(CuratorFramework client, String lockBasePath, String participant, Duration ownerWait,
			@Nullable ListingClients listings) {
		this.client = client;
		this.lockBasePath = ZKPaths.makePath(lockBasePath, "");
		this.view = new ClusterView(client, lockBasePath, null, listings);
		this.participant = participant;
		this.ownerWait = ownerWait;
	}

	/**
	 * Release one node of a key, or every node of one instance on it. Errors are reported per
	 * owner ({@link ForcedRelease.Outcome#FAILED}), never thrown after a node was deleted.
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
			ForcedRelease.Owner result = releaseOf((participant != null) ? participant : "", session, paths);
			released.addAll(result.nodes());
			owners.add(result);
			String message = "Forced release of lock node(s) " + paths + " of '" + result.participant() + "' (session 0x"
					+ session + ") on key '" + key + "': " + result.outcome() + ", " + result.detail();
			if (result.outcome() == ForcedRelease.Outcome.CONFIRMED) {
				logger.warn(message);
			}
			else {
				logger.error(message);
			}
		});
		return new ForcedRelease(key, released, owners);
	}

	private ForcedRelease.Owner releaseOf(String participant, String session, List<String> paths) {
		List<String> gone = new ArrayList<>();
		String[] notice = new String[1];
		try {
			String control = ReleaseNotice.controlPath(this.lockBasePath, participant);
			if (participant.isEmpty() || this.client.checkExists().forPath(control) == null) {
				deleteAll(paths, gone);
				return owner(participant, session, ForcedRelease.Outcome.NOT_TOLD, gone,
						"the owner has no control node and was not told: its holders, if any, may go on working, "
								+ "and their late writes are left to the fencing tokens");
			}
			String answer = tell(participant, control, session, paths, notice);
			if (answer == null) {
				return owner(participant, session, ForcedRelease.Outcome.NOT_CONFIRMED, gone,
						"the owner did not answer within " + this.ownerWait + ": nothing was deleted; it applies the "
								+ "release when it reads the notice, or its nodes go with its session");
			}
			if (!ReleaseNotice.isConfirmation(answer)) {
				return owner(participant, session, ForcedRelease.Outcome.FAILED, gone,
						"the owner could not apply the release (" + answer + "): nothing was deleted");
			}
			deleteAll(paths, gone);
			return owner(participant, session, ForcedRelease.Outcome.CONFIRMED, gone,
					"the owner confirmed (" + answer + ") that its holders lost the node(s) and that it never grants "
							+ "them again");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return failed(participant, session, gone, notice[0], "interrupted: " + ex);
		}
		catch (IllegalStateException ex) {
			return failed(participant, session, gone, notice[0], String.valueOf(ex.getMessage()));
		}
		catch (Exception ex) {
			return failed(participant, session, gone, notice[0], "ZooKeeper failed: " + ex);
		}
	}

	/**
	 * A release that failed part way: a notice written and not answered is withdrawn (in the
	 * background, until ZooKeeper takes the delete); the owner may still apply it if it reads it
	 * first, and the detail says so.
	 */
	private ForcedRelease.Owner failed(String participant, String session, List<String> gone, @Nullable String notice,
			String why) {
		String detail = why + "; gone: " + gone;
		if (notice != null) {
			try {
				this.client.delete().guaranteed().inBackground().forPath(notice);
			}
			catch (Exception ex) {
				// it goes with this instance's session
			}
			detail += "; the notice to the owner is withdrawn, but the owner applies it if it reads it first";
		}
		return owner(participant, session, ForcedRelease.Outcome.FAILED, gone, detail);
	}

	private static ForcedRelease.Owner owner(String participant, String session, ForcedRelease.Outcome outcome,
			List<String> gone, String detail) {
		return new ForcedRelease.Owner(participant, session, outcome == ForcedRelease.Outcome.CONFIRMED, outcome,
				List.copyOf(gone), detail);
	}

	/**
	 * Record the release in the owner's control node and wait for the owner's answer: its
	 * confirmation or refusal, or {@code null} if none came within the wait. Without an answer
	 * the notice stays, for the owner to apply when it reads it, and is removed once the
	 * owner's session has ended.
	 */
	private @Nullable String tell(String participant, String control, String session, List<String> paths,
			@Nullable String[] written) throws Exception {
		ReleaseNotice notice = new ReleaseNotice(Long.parseUnsignedLong(session, 16), this.participant, paths);
		String path = this.client.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath(ZKPaths.makePath(control, ReleaseNotice.NOTICE), notice.toBytes());
		written[0] = path;
		long deadline = System.nanoTime() + this.ownerWait.toNanos();
		while (true) {
			byte[] data;
			try {
				data = this.client.getData().forPath(path);
			}
			catch (KeeperException.NoNodeException ex) {
				throw new IllegalStateException("the notice to '" + participant
						+ "' went with this instance's session before the owner answered; release again");
			}
			String answer = ReleaseNotice.answer(data);
			if (answer != null) {
				delete(path);
				return answer;
			}
			if (System.nanoTime() - deadline >= 0) {
				removeOnceOwnerGone(path, ZKPaths.makePath(control, ReleaseNotice.SESSION + session));
				return null;
			}
			Thread.sleep(POLL_MILLIS);
		}
	}

	/**
	 * Remove a notice that no one answered once the owner's session is over (its session node
	 * gone) or once the owner answers.
	 */
	private void removeOnceOwnerGone(String notice, String sessionNode) throws Exception {
		Watcher removeNotice = (event) -> deleteInBackground(notice);
		if (this.client.checkExists().usingWatcher(removeNotice).forPath(sessionNode) == null) {
			deleteInBackground(notice);
			return;
		}
		this.client.getData().usingWatcher((Watcher) (event) -> {
			if (event.getType() == Watcher.Event.EventType.NodeDataChanged) {
				logger.warn("The owner of " + notice + " applied the forced release after the wait");
				deleteInBackground(notice);
			}
		}).forPath(notice);
	}

	private void deleteInBackground(String path) {
		try {
			this.client.delete().quietly().inBackground().forPath(path);
		}
		catch (Exception ex) {
			logger.debug("Could not remove " + path + " (it goes with this instance's session): " + ex);
		}
	}

	private void deleteAll(List<String> paths, List<String> gone) {
		for (String path : paths) {
			delete(path);
			gone.add(ZKPaths.getNodeFromPath(path));
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
