package dev.zklock.lock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;
import dev.zklock.ZkLockException;
import dev.zklock.lock.RequestWatchdog.RequestTimeoutException;

/**
 * The herd-free shared/exclusive lock recipe (see RECIPES.md). Each request creates a protected
 * EPHEMERAL_SEQUENTIAL child of the key's node, named like Curator's
 * {@code InterProcessReadWriteLock} ({@code __WRIT__} for exclusive, {@code __READ__} for shared)
 * so both see each other. An exclusive request holds the lock when its child is the lowest and
 * otherwise watches its predecessor; a shared request holds it when no exclusive child is lower
 * and otherwise watches the nearest lower exclusive child. The create's reply carries the node's
 * creation zxid, the fencing token, at no extra cost.
 */
final class LockRecipe {

	private static final Log logger = LogFactory.getLog(LockRecipe.class);

	static final String READ = "__READ__";

	static final String WRITE = "__WRIT__";

	private static final byte[] NO_DATA = new byte[0];

	private static final long RELEASE_WAIT_MILLIS = 2000;

	private final CuratorFramework client;

	private final RequestWatchdog watchdog;

	LockRecipe(CuratorFramework client, RequestWatchdog watchdog) {
		this.client = client;
		this.watchdog = watchdog;
	}

	/**
	 * Wait for the lock.
	 * @param lockPath the key's node
	 * @param waiter the waiting thread's waiter, woken by watches and connection changes
	 * @param deadline when to give up
	 * @return our node once it holds the lock, or {@code null} when the deadline passed first;
	 * no node of ours is left behind then
	 * @throws ZkLockException when ZooKeeper is unreachable or fails
	 * @throws InterruptedException when the thread is interrupted; no node is left behind
	 */
	@Nullable LockNode acquire(String lockPath, Waiter waiter, Deadline deadline) throws InterruptedException {
		try {
			if (deadline.isNoWait() && visiblyHeld(lockPath, waiter, deadline)) {
				return null;
			}
			while (true) {
				LockNode node = create(lockPath, waiter, deadline);
				if (node == null) {
					continue;
				}
				boolean done = false;
				try {
					Turn turn = awaitTurn(lockPath, node, waiter, deadline);
					if (turn == Turn.HOLDS) {
						done = true;
						return node;
					}
					if (turn == Turn.TIMED_OUT) {
						return null;
					}
				}
				finally {
					if (!done) {
						release(node);
					}
				}
				logger.debug("Lock node " + node.path() + " vanished with its session; requesting the lock again");
			}
		}
		catch (RequestTimeoutException ex) {
			if (!isConnected()) {
				throw unreachable(waiter.key(), deadline);
			}
			return null;
		}
		catch (InterruptedException | ZkLockException ex) {
			throw ex;
		}
		catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException ex) {
			throw unreachable(waiter.key(), deadline);
		}
		catch (Exception ex) {
			throw new ZkLockException("Could not obtain the lock on key '" + waiter.key() + "': " + ex, ex);
		}
	}

	/**
	 * Release a held lock, or abandon a request: delete the node and, while connected, wait for
	 * the server to confirm (at most {@link #RELEASE_WAIT_MILLIS}), so that when a call returns
	 * its lock is free for every other session. The delete is guaranteed: if it cannot be done
	 * now, Curator does it after reconnecting, and the node goes with its session in any case.
	 */
	void release(LockNode node) {
		CountDownLatch deleted = new CountDownLatch(1);
		try {
			this.client.delete()
				.guaranteed()
				.inBackground((client, event) -> deleted.countDown())
				.forPath(node.path());
			if (isConnected() && !deleted.await(RELEASE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
				logger.debug("Lock node " + node.path() + " not deleted yet; deletion goes on in the background");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			logger.warn("Could not delete lock node " + node.path() + "; it goes with its session", ex);
		}
	}

	/**
	 * Return whether a request that will not wait would be refused anyway: someone holds or
	 * queues for the lock in a way that excludes the mode. One read instead of a create and a
	 * delete, for the common "skip if another instance holds it" call.
	 */
	private boolean visiblyHeld(String lockPath, Waiter waiter, Deadline deadline) throws Exception {
		List<String> children;
		try {
			ensureConnected(waiter.key(), deadline);
			children = this.watchdog.call(deadline.requestNanos(), () -> this.client.getChildren().forPath(lockPath));
		}
		catch (KeeperException.NoNodeException ex) {
			return false;
		}
		for (String child : children) {
			if (child.contains(WRITE) || (waiter.mode() == LockMode.EXCLUSIVE && child.contains(READ))) {
				return true;
			}
		}
		return false;
	}

	private @Nullable LockNode create(String lockPath, Waiter waiter, Deadline deadline) throws Exception {
		ensureConnected(waiter.key(), deadline);
		String name = (waiter.mode() == LockMode.EXCLUSIVE) ? WRITE : READ;
		Stat created = new Stat();
		String path = this.watchdog.call(deadline.requestNanos(), () -> this.client.create()
			.storingStatIn(created)
			.creatingParentContainersIfNeeded()
			.withProtection()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath(ZKPaths.makePath(lockPath, name), NO_DATA));
		Stat stat = created;
		if (stat.getCzxid() == 0) {
			// Found again by protected mode after a lost reply: read what the reply would have said.
			stat = this.watchdog.call(deadline.requestNanos(), () -> this.client.checkExists().forPath(path));
			if (stat == null) {
				return null;
			}
		}
		return new LockNode(path, stat.getCzxid(), stat.getEphemeralOwner());
	}

	private Turn awaitTurn(String lockPath, LockNode node, Waiter waiter, Deadline deadline) throws Exception {
		String ourName = ZKPaths.getNodeFromPath(node.path());
		while (true) {
			List<String> children = sorted(
					this.watchdog.call(deadline.requestNanos(), () -> this.client.getChildren().forPath(lockPath)));
			int ours = children.indexOf(ourName);
			if (ours < 0) {
				return Turn.VANISHED;
			}
			String predecessor = predecessor(children, ours, waiter.mode());
			if (predecessor == null) {
				return Turn.HOLDS;
			}
			if (deadline.hasPassed()) {
				return Turn.TIMED_OUT;
			}
			waiter.reset();
			try {
				this.watchdog.call(deadline.requestNanos(),
						() -> this.client.getData().usingWatcher(waiter).forPath(ZKPaths.makePath(lockPath, predecessor)));
			}
			catch (KeeperException.NoNodeException ex) {
				continue;
			}
			if (!waiter.await(deadline)) {
				return Turn.TIMED_OUT;
			}
			ensureConnected(waiter.key(), deadline);
		}
	}

	private static @Nullable String predecessor(List<String> children, int ours, LockMode mode) {
		if (mode == LockMode.EXCLUSIVE) {
			return (ours == 0) ? null : children.get(ours - 1);
		}
		for (int i = ours - 1; i >= 0; i--) {
			if (children.get(i).contains(WRITE)) {
				return children.get(i);
			}
		}
		return null;
	}

	private static List<String> sorted(List<String> children) {
		List<String> locks = new ArrayList<>(children.size());
		for (String child : children) {
			if (child.contains(WRITE) || child.contains(READ)) {
				locks.add(child);
			}
		}
		locks.sort(Comparator.comparing(LockRecipe::sequence));
		return locks;
	}

	private static String sequence(String child) {
		int write = child.lastIndexOf(WRITE);
		return (write >= 0) ? child.substring(write + WRITE.length())
				: child.substring(child.lastIndexOf(READ) + READ.length());
	}

	private boolean isConnected() {
		return this.client.getZookeeperClient().isConnected();
	}

	private void ensureConnected(String key, Deadline deadline) throws InterruptedException {
		if (isConnected()) {
			return;
		}
		boolean connected;
		if (deadline.isForever()) {
			this.client.blockUntilConnected();
			connected = true;
		}
		else {
			long millis = TimeUnit.NANOSECONDS.toMillis(deadline.remainingNanos());
			connected = millis > 0 && this.client.blockUntilConnected((int) Math.min(Integer.MAX_VALUE, millis),
					TimeUnit.MILLISECONDS);
		}
		if (!connected) {
			throw unreachable(key, deadline);
		}
	}

	private ZkLockException unreachable(String key, Deadline deadline) {
		return new ZkLockException("ZooKeeper is unreachable at '"
				+ this.client.getZookeeperClient().getCurrentConnectionString() + "': could not obtain the lock on key '"
				+ key + "' within its wait time of " + deadline.waitTime().toMillis() + "ms");
	}

	private enum Turn {

		HOLDS, TIMED_OUT, VANISHED

	}

}
