package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;
import dev.zklock.ZkLockException;

import org.springframework.util.ConcurrentLruCache;

/**
 * Acquires and releases locks for {@link dev.zklock.ZkLockTemplate}: reentrancy per thread,
 * several keys in one order, and the held-lock registry that connection changes act on.
 */
public final class LockEngine implements AutoCloseable {

	private static final int PATH_CACHE_SIZE = 1024;

	private final CuratorFramework client;

	private final RequestWatchdog watchdog = new RequestWatchdog();

	private final PauseMonitor pauseMonitor;

	private final SessionGuard guard;

	private final ScheduledExecutorService scheduler;

	private final Stalls stalls;

	private final KeyNodes keyNodes = new KeyNodes();

	private final LockRecipe recipe;

	private final ConcurrentLruCache<String, String> paths;

	private final LockCallListener listener;

	/**
	 * Create an engine.
	 * @param client the started client
	 * @param basePath the path under which each key gets its node
	 * @param interruptOnLost whether to interrupt a holder when its lock is lost
	 */
	public LockEngine(CuratorFramework client, String basePath, boolean interruptOnLost) {
		this(client, basePath, interruptOnLost, LockCallListener.NONE);
	}

	/**
	 * Create an engine that tells a listener of the locks it loses.
	 * @param client the started client
	 * @param basePath the path under which each key gets its node
	 * @param interruptOnLost whether to interrupt a holder when its lock is lost
	 * @param listener told of every lock lost
	 */
	public LockEngine(CuratorFramework client, String basePath, boolean interruptOnLost, LockCallListener listener) {
		this.client = client;
		this.listener = listener;
		this.pauseMonitor = PauseMonitor.forClient(client);
		this.scheduler = LockScheduler.create();
		this.stalls = new Stalls(client, this.scheduler);
		this.guard = new SessionGuard(interruptOnLost, this.stalls);
		this.recipe = new LockRecipe(client, this.watchdog, this.keyNodes, this.stalls);
		this.paths = new ConcurrentLruCache<>(PATH_CACHE_SIZE, (key) -> ZKPaths.makePath(basePath, LockKeys.encode(key)));
		client.getConnectionStateListenable().addListener(this.guard);
	}

	/**
	 * Acquire every key, in the given order, for the current thread.
	 * @param orderedKeys the keys, sorted and distinct
	 * @param mode the mode
	 * @param waitTime how long to wait in all; zero to try once, negative to wait forever
	 * @return the acquisition, or {@code null} if the locks were not all obtained in time (then
	 * none is held)
	 * @throws InterruptedException if interrupted while waiting (then none is held)
	 */
	public @Nullable Acquisition acquire(List<String> orderedKeys, LockMode mode, Duration waitTime)
			throws InterruptedException {
		Deadline deadline = Deadline.after(waitTime);
		List<Hold> holds = new ArrayList<>(orderedKeys.size());
		boolean acquired = false;
		try {
			for (String key : orderedKeys) {
				Hold hold = acquireOne(key, mode, deadline);
				if (hold == null) {
					return null;
				}
				holds.add(hold);
				ThreadHolds.push(hold);
			}
			acquired = true;
			return new Acquisition(holds);
		}
		finally {
			if (!acquired) {
				release(new Acquisition(holds));
			}
		}
	}

	/**
	 * Release what an acquisition holds, in reverse order.
	 * @param acquisition the acquisition
	 */
	public void release(Acquisition acquisition) {
		List<Hold> holds = acquisition.holds();
		for (int i = holds.size() - 1; i >= 0; i--) {
			Hold hold = holds.get(i);
			ThreadHolds.remove(hold);
			if (hold.owner()) {
				this.guard.remove(hold.lock());
				this.recipe.release(hold.lock().node(), true);
			}
		}
	}

	/**
	 * Return what this process holds now.
	 * @return the held locks
	 */
	public List<HeldLockInfo> heldLocks() {
		return this.guard.held().stream().map(HeldLockInfo::of).toList();
	}

	/**
	 * Return the calls waiting for a lock now.
	 * @return the waiting calls
	 */
	public List<WaitingCallInfo> waitingCalls() {
		return this.guard.waiting().stream().map(WaitingCallInfo::of).toList();
	}

	int pathCacheSize() {
		return this.paths.size();
	}

	private @Nullable Hold acquireOne(String key, LockMode mode, Deadline deadline) throws InterruptedException {
		Hold outer = ThreadHolds.find(key);
		if (outer != null) {
			if (outer.lock().mode() == LockMode.SHARED && mode == LockMode.EXCLUSIVE) {
				throw new ZkLockException("Cannot take the EXCLUSIVE lock on key '" + key
						+ "': this thread holds it SHARED, and upgrading would deadlock. "
						+ "Take it EXCLUSIVE in the outer call, or release the shared lock first");
			}
			return new Hold(outer.lock(), mode, false);
		}
		Waiter waiter = new Waiter(key, mode);
		this.guard.addWaiter(waiter);
		LockNode node;
		try {
			node = this.recipe.acquire(this.paths.get(key), waiter, deadline);
		}
		finally {
			this.guard.removeWaiter(waiter);
		}
		if (node == null) {
			return null;
		}
		ActiveLock lock = new ActiveLock(key, mode, node, this.client, this.pauseMonitor, this.listener);
		this.guard.add(lock, this.client);
		return new Hold(lock, mode, true);
	}

	@Override
	public void close() {
		this.client.getConnectionStateListenable().removeListener(this.guard);
		this.pauseMonitor.close();
		this.watchdog.close();
		this.scheduler.shutdownNow();
	}

}
