package dev.zklock.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;
import org.springframework.util.ConcurrentLruCache;

import dev.zklock.LockMode;
import dev.zklock.ZkLockException;
import dev.zklock.leader.ParticipantIds;
import dev.zklock.zookeeper.CuratorPort;
import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * Acquires and releases locks for {@link dev.zklock.ZkLockTemplate}: reentrancy per thread,
 * several keys in one order, and the registry of held nodes that connection changes act on. With
 * local handoff on (the default), lock nodes belong to the instance and pass between its calls
 * ({@link KeyLock}); with it off, every call has a node of its own ({@link LockRecipe}).
 */
public final class LockEngine implements AutoCloseable {

	private static final int PATH_CACHE_SIZE = 1024;

	private final ZooKeeperPort port;

	/**
	 * The port's clock, made once: every call's deadline reads it.
	 */
	private final LongSupplier clock;

	private final LockSettings settings;

	private final @Nullable PauseMonitor pauseMonitor;

	private final Pauses pauses;

	private final SessionGuard guard;

	private final @Nullable ScheduledExecutorService scheduler;

	private final LockRecipe recipe;

	private final KeyLocks keyLocks;

	private final ConcurrentLruCache<String, String> paths;

	private final LockCallListener listener;

	private final int tokensPerWrite;

	private final NodeOwners owners = new NodeOwners(ParticipantIds.unnumbered("application"));

	/**
	 * Create an engine with the default settings.
	 * @param client the started client
	 * @param basePath the path under which each key gets its node
	 * @param interruptOnLost whether to interrupt a holder when its lock is lost
	 */
	public LockEngine(CuratorFramework client, String basePath, boolean interruptOnLost) {
		this(client, basePath, interruptOnLost, LockCallListener.NONE, LockSettings.DEFAULTS);
	}

	/**
	 * Create an engine that tells a listener of the locks it loses.
	 * @param client the started client
	 * @param basePath the path under which each key gets its node
	 * @param interruptOnLost whether to interrupt a holder when its lock is lost
	 * @param listener told of every lock lost
	 * @param settings how calls of this instance share lock nodes
	 */
	public LockEngine(CuratorFramework client, String basePath, boolean interruptOnLost, LockCallListener listener,
			LockSettings settings) {
		this(LockScheduler.create(), (scheduler) -> new CuratorPort(client, Objects.requireNonNull(scheduler)),
				PauseMonitor.forClient(client), null,
				ZKPaths.makePath(basePath, ""), interruptOnLost, listener, settings, FencingTokenSpace.MAX_COUNT);
	}

	/**
	 * Create an engine on any port to ZooKeeper: the deterministic simulator's, in tests.
	 * @param port the port
	 * @param pauses tells of process pauses, on the port's clock
	 * @param basePath the path under which each key gets its node, normalised
	 * @param tokensPerWrite how many fencing tokens a zxid of a node gives before a write (at
	 * most {@link FencingTokenSpace#MAX_COUNT}; fewer in the simulator, to reach that write often)
	 */
	LockEngine(ZooKeeperPort port, Pauses pauses, String basePath, boolean interruptOnLost, LockCallListener listener,
			LockSettings settings, int tokensPerWrite) {
		this(null, (scheduler) -> port, null, pauses, basePath, interruptOnLost, listener, settings, tokensPerWrite);
	}

	private LockEngine(@Nullable ScheduledExecutorService scheduler, Function<@Nullable ScheduledExecutorService, ZooKeeperPort> port,
			@Nullable PauseMonitor pauseMonitor, @Nullable Pauses pauses, String basePath, boolean interruptOnLost,
			LockCallListener listener, LockSettings settings, int tokensPerWrite) {
		Assert.isTrue(tokensPerWrite >= 1 && tokensPerWrite <= FencingTokenSpace.MAX_COUNT,
				"tokensPerWrite must be between 1 and " + FencingTokenSpace.MAX_COUNT);
		this.tokensPerWrite = tokensPerWrite;
		this.scheduler = scheduler;
		this.port = port.apply(scheduler);
		this.clock = this.port::nanoTime;
		this.listener = listener;
		this.settings = settings;
		this.pauseMonitor = pauseMonitor;
		this.pauses = (pauses != null) ? pauses : Objects.requireNonNull(pauseMonitor);
		Stalls stalls = new Stalls(this.port);
		KeyNodes keyNodes = new KeyNodes();
		this.guard = new SessionGuard(interruptOnLost, stalls, this.port);
		this.recipe = new LockRecipe(this.port, keyNodes, stalls, this.owners, settings.nodeNames());
		this.keyLocks = new KeyLocks(this.port, settings, keyNodes, stalls, this.guard, this.pauses, listener,
				tokensPerWrite, this.owners);
		this.paths = new ConcurrentLruCache<>(PATH_CACHE_SIZE, (key) -> LockNodes.path(basePath, LockKeys.encode(key)));
		this.port.addConnectionListener(this.guard);
	}

	/**
	 * Return the participant id that this instance's lock nodes name ({@link NodeOwner}).
	 * @return the participant id
	 */
	public String participantId() {
		return this.owners.participant();
	}

	/**
	 * Name this instance in the data of the lock nodes it creates from now on: by default
	 * {@code application@<host>:<pid>}.
	 * @param participantId the participant id
	 */
	public void setParticipantId(String participantId) {
		this.owners.participant(participantId);
	}

	/**
	 * Apply a release of lock nodes of this instance made by an operator from another instance:
	 * none of the nodes is granted again in this session, held or not yet; their holders lose
	 * them as on a lost session (their calls end with {@link dev.zklock.LockLostException}, the
	 * lost-lock listener is told, holders are interrupted if so configured); a key still waiting
	 * on one of them asks for a new node at once; and the nodes are deleted. Nothing happens
	 * when the release names another session than the current one (its nodes went with it).
	 * @param nodePaths the released nodes' full paths
	 * @param sessionId the session that owned them
	 * @param why what the holders are told
	 * @return how many of them this instance held
	 */
	public int loseReleased(Collection<String> nodePaths, long sessionId, String why) {
		if (sessionId != this.port.sessionId()) {
			return 0;
		}
		int lost = this.guard.loseReleased(nodePaths, sessionId, why);
		for (KeyLock keyLock : this.keyLocks.all()) {
			keyLock.released(nodePaths);
		}
		this.recipe.released(nodePaths);
		for (String path : nodePaths) {
			this.port.delete(path, null);
		}
		return lost;
	}

	/**
	 * Return the lock nodes this instance's requests wait with now: those of the keys' requests
	 * and of the calls with a node of their own.
	 */
	List<String> waitingNodes() {
		List<String> nodes = new ArrayList<>(this.recipe.waitingNodes());
		for (KeyLock keyLock : this.keyLocks.all()) {
			String node = keyLock.waitingNode();
			if (node != null) {
				nodes.add(node);
			}
		}
		return nodes;
	}

	/**
	 * Return the current session id, 0 when there is none.
	 * @return the session id
	 */
	public long sessionId() {
		return this.port.sessionId();
	}

	/**
	 * Acquire every key, in the given order, for the current thread. Once it holds them all, it
	 * looks again at those taken first: if one was lost while a later key was awaited, every key
	 * is given back and asked for again, within the wait time, so that the work starts only while
	 * every grant is valid.
	 * @param orderedKeys the keys, sorted and distinct
	 * @param mode the mode
	 * @param waitTime how long to wait in all; zero to try once, negative to wait forever
	 * @return the acquisition, or {@code null} if the locks were not all obtained in time (then
	 * none is held)
	 * @throws InterruptedException if interrupted while waiting (then none is held)
	 */
	public @Nullable Acquisition acquire(List<String> orderedKeys, LockMode mode, Duration waitTime)
			throws InterruptedException {
		Deadline deadline = Deadline.after(waitTime, this.clock);
		while (true) {
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
				acquired = holds.size() == 1 || ownGrantsValid(holds);
				if (acquired) {
					return new Acquisition(holds);
				}
			}
			finally {
				if (!acquired) {
					// Without waiting for the server: the call returns within its wait time, and
					// the deletes of what it gives back go on in the background.
					release(holds, false);
				}
			}
			// A key taken earlier was lost while a later one was awaited: the work starts only
			// when every grant is still valid, so all were given back; ask again, in order,
			// within the wait time.
			if (deadline.hasPassed()) {
				if (!this.recipe.isConnected()) {
					throw this.recipe.unreachable(orderedKeys.get(0), deadline);
				}
				return null;
			}
		}
	}

	/**
	 * Return whether every grant the call made itself is still certainly held (asking the server
	 * after a pause); a reentrant one is the outer call's, which learns of its loss when it ends.
	 */
	private static boolean ownGrantsValid(List<Hold> holds) {
		for (Hold hold : holds) {
			if (hold.owner() && !hold.isValid()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Acquire every key, in the given order, for an asynchronous call: no thread waits, and the
	 * grants belong to the call, not to a thread (an asynchronous call is not reentrant: it waits
	 * for the locks its own thread holds like any other call).
	 * @param orderedKeys the keys, sorted and distinct
	 * @param mode the mode
	 * @param waitTime how long to wait in all; zero to try once, negative to wait forever
	 * @param executor where the returned stage completes
	 * @return the acquisition, or {@code null} if the locks were not all obtained in time (then
	 * none is held); cancelling it withdraws the call and releases what it held
	 */
	public CompletableFuture<@Nullable Acquisition> acquireAsync(List<String> orderedKeys, LockMode mode,
			Duration waitTime, Executor executor) {
		return new AsyncAcquisition(this, orderedKeys, mode, Deadline.after(waitTime, this.clock), executor)
			.start();
	}

	/**
	 * Check, without blocking, that every lock of an asynchronous call is still certainly held,
	 * then release them all.
	 * @param acquisition the acquisition
	 * @return completed once released, with the {@link dev.zklock.LockLostException} naming the
	 * first lock that was lost or in doubt, or with {@code null}
	 */
	public CompletableFuture<@Nullable RuntimeException> finishAsync(Acquisition acquisition) {
		return acquisition.checkHeldAsync().thenCompose((lost) -> AsyncRelease.release(acquisition.holds())
			.thenApply((released) -> lost));
	}

	/**
	 * Check, without blocking, that every lock of an asynchronous call is still certainly held.
	 * @param acquisition the acquisition
	 * @return completed with the {@link dev.zklock.LockLostException} naming the first lock that
	 * was lost or in doubt, or with {@code null}
	 */
	public CompletableFuture<@Nullable RuntimeException> checkHeldAsync(Acquisition acquisition) {
		return acquisition.checkHeldAsync();
	}

	/**
	 * Release, without blocking, every lock of an asynchronous call.
	 * @param acquisition the acquisition
	 * @return completed once released
	 */
	public CompletableFuture<@Nullable Void> releaseAsync(Acquisition acquisition) {
		return AsyncRelease.release(acquisition.holds());
	}

	/**
	 * Release what an acquisition holds, in reverse order.
	 * @param acquisition the acquisition
	 */
	public void release(Acquisition acquisition) {
		release(acquisition.holds(), true);
	}

	/**
	 * Release the grants in reverse order.
	 * @param awaitDelete whether to wait for the server to delete the nodes the releases give up
	 */
	private void release(List<Hold> holds, boolean awaitDelete) {
		for (int i = holds.size() - 1; i >= 0; i--) {
			Hold hold = holds.get(i);
			ThreadHolds.remove(hold);
			if (hold.owner()) {
				releaseOwned(hold, awaitDelete);
			}
			else {
				// A reentrant grant ends with its call, although the outer call still holds
				// the lock: it is not valid any more, and gives no new token.
				hold.released();
			}
		}
	}

	/**
	 * Return what this process holds now.
	 * @return the held locks, one per call holding a key
	 */
	public List<HeldLockInfo> heldLocks() {
		List<HeldLockInfo> held = new ArrayList<>();
		for (ActiveLock lock : this.guard.held()) {
			lock.holds().forEach((hold) -> held.add(HeldLockInfo.of(hold)));
		}
		return held;
	}

	/**
	 * Return the holds that began before a given instant, oldest first, one for each key and
	 * holder (a reentrant call's inner holds are left out; each asynchronous call is a holder of
	 * its own).
	 * @param before the instant
	 * @param withStacks whether to read each blocking holder's stack (empty otherwise)
	 * @return the holds
	 */
	public List<LongHold> holdsSince(Instant before, boolean withStacks) {
		Map<String, LongHold> oldest = new LinkedHashMap<>();
		for (ActiveLock lock : this.guard.held()) {
			for (Hold hold : lock.holds()) {
				if (hold.since().isBefore(before)) {
					String id = lock.key() + "\n" + System.identityHashCode(hold.holderIdentity()) + "\n"
							+ System.identityHashCode(hold.lock());
					LongHold seen = oldest.get(id);
					if (seen == null || hold.since().isBefore(seen.since())) {
						oldest.put(id, new LongHold(lock.key(), hold.mode(), lock.call(), hold.holderName(),
								hold.since(), withStacks ? List.of(hold.holderStack()) : List.of()));
					}
				}
			}
		}
		List<LongHold> holds = new ArrayList<>(oldest.values());
		holds.sort(Comparator.comparing(LongHold::since));
		return holds;
	}

	/**
	 * Return the calls waiting for a lock now.
	 * @return the waiting calls
	 */
	public List<WaitingCallInfo> waitingCalls() {
		return this.guard.waiting().stream().map(WaitingCallInfo::of).toList();
	}

	/**
	 * Return the locks this instance keeps with no call holding them.
	 * @return the kept locks
	 */
	public List<KeptLockInfo> keptLocks() {
		return this.keyLocks.kept();
	}

	/**
	 * Return the keys this instance holds or keeps while another instance waits for them.
	 * @return the keys
	 */
	public List<String> keysOthersWaitFor() {
		return this.keyLocks.othersWaitFor();
	}

	/**
	 * Return what local handoff and kept locks saved so far.
	 * @return the counts
	 */
	public LockCounts counts() {
		return this.keyLocks.counts();
	}

	/**
	 * Return how calls of this instance share lock nodes.
	 * @return the settings
	 */
	public LockSettings settings() {
		return this.settings;
	}

	KeyLocks keyLocks() {
		return this.keyLocks;
	}

	String path(String key) {
		return this.paths.get(key);
	}

	ZooKeeperPort port() {
		return this.port;
	}

	boolean isConnected() {
		return this.recipe.isConnected();
	}

	ZkLockException unreachable(String key, Deadline deadline) {
		return this.recipe.unreachable(key, deadline);
	}

	@Nullable PauseMonitor pauseMonitor() {
		return this.pauseMonitor;
	}

	int pathCacheSize() {
		return this.paths.size();
	}

	private @Nullable Hold acquireOne(String key, LockMode mode, Deadline deadline) throws InterruptedException {
		Hold outer = ThreadHolds.find(key);
		if (outer != null) {
			if (outer.grantMode() == LockMode.SHARED && mode == LockMode.EXCLUSIVE) {
				throw new ZkLockException("Cannot take the EXCLUSIVE lock on key '" + key
						+ "': this thread holds it SHARED, and upgrading would deadlock. "
						+ "Take it EXCLUSIVE in the outer call, or release the shared lock first");
			}
			return outer.reentered(mode);
		}
		Waiter waiter = new Waiter(key, mode);
		this.guard.addWaiter(waiter);
		try {
			return this.settings.handoff() ? acquireShared(key, waiter, deadline) : acquireOwn(key, waiter, deadline);
		}
		finally {
			this.guard.removeWaiter(waiter);
		}
	}

	/**
	 * A node of the call's own: the first version's recipe.
	 */
	private @Nullable Hold acquireOwn(String key, Waiter waiter, Deadline deadline) throws InterruptedException {
		while (true) {
			LockNode node = this.recipe.acquire(this.paths.get(key), waiter, deadline);
			if (node == null) {
				return null;
			}
			ActiveLock lock = new ActiveLock(key, node, this.port, this.pauses, this.listener, this.tokensPerWrite, () -> {
			}).ownedBy(this.recipe.data(waiter));
			Hold hold = new Hold(lock, waiter.mode(), GrantBatch.first(), true, Thread.currentThread());
			lock.added(hold);
			this.guard.add(lock, this.port);
			if (lock.isValid()) {
				return hold;
			}
			// Between the grant and its registration the connection was suspended, an operator
			// released the node, or a pause may have outlasted the session: give the node back,
			// and ask again within the wait time, as a grant of the key's node does.
			releaseOwned(hold, false);
			if (deadline.hasPassed()) {
				if (!this.recipe.isConnected()) {
					throw this.recipe.unreachable(key, deadline);
				}
				return null;
			}
		}
	}

	/**
	 * A grant of the instance's node for the key, through the key's local queue.
	 */
	private @Nullable Hold acquireShared(String key, Waiter waiter, Deadline deadline) throws InterruptedException {
		String path = this.paths.get(key);
		while (true) {
			KeyLock keyLock = this.keyLocks.obtain(key, path);
			if (deadline.isNoWait() && keyLock.isIdle() && this.recipe.visiblyHeld(path, waiter, deadline)) {
				return null;
			}
			LocalRequest request = new LocalRequest(key, waiter.mode(), deadline);
			if (!keyLock.enqueue(request)) {
				continue;
			}
			Hold hold = awaitGrant(keyLock, request, deadline);
			if (hold == null) {
				return null;
			}
			if (hold.lock().isValid()) {
				if (hold.reusesKeptLock()) {
					this.keyLocks.reused();
				}
				return hold;
			}
			// A pause may have outlasted the session, and the server did not confirm the node:
			// give the grant back, and ask again (the key then requests a new node).
			keyLock.release(hold);
			if (deadline.hasPassed()) {
				if (!this.recipe.isConnected()) {
					throw this.recipe.unreachable(key, deadline);
				}
				return null;
			}
		}
	}

	private @Nullable Hold awaitGrant(KeyLock keyLock, LocalRequest request, Deadline deadline)
			throws InterruptedException {
		try {
			return Deadline.await(this.port, request.result(), deadline, request::isWaitingForOthers);
		}
		catch (TimeoutException ex) {
			if (keyLock.cancel(request)) {
				if (!this.recipe.isConnected()) {
					throw this.recipe.unreachable(request.key(), deadline);
				}
				return null;
			}
			return request.result().join();
		}
		catch (InterruptedException ex) {
			if (!keyLock.cancel(request)) {
				Hold granted = request.result().join();
				if (granted != null) {
					keyLock.release(granted);
				}
			}
			throw ex;
		}
		catch (ExecutionException ex) {
			keyLock.cancel(request);
			throw new ZkLockException("Could not obtain the lock on key '" + request.key() + "': " + ex.getCause(),
					ex.getCause());
		}
	}

	/**
	 * Release a grant the call made itself.
	 * @param awaitDelete whether to wait for the server to delete a node the release gives up
	 * (at most {@link LockRecipe#RELEASE_WAIT_MILLIS}, while connected)
	 */
	private void releaseOwned(Hold hold, boolean awaitDelete) {
		KeyLock keyLock = hold.keyLock();
		if (keyLock == null) {
			hold.released();
			hold.lock().removed(hold);
			this.guard.remove(hold.lock());
			this.recipe.release(hold.lock().node(), awaitDelete);
			return;
		}
		boolean waits = awaitDelete && this.recipe.isConnected();
		long answerBy = waits ? this.port.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LockRecipe.RELEASE_WAIT_MILLIS) : 0;
		CompletableFuture<Void> deleted = keyLock.release(hold, answerBy);
		if (waits && deleted != null) {
			try {
				this.port.await(deleted, Math.max(0, answerBy - this.port.nanoTime()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (ExecutionException | TimeoutException ex) {
				// Deleted in the background, or with the session: the lock is released locally.
			}
		}
	}

	@Override
	public void close() {
		this.keyLocks.close();
		this.port.removeConnectionListener(this.guard);
		if (this.pauseMonitor != null) {
			this.pauseMonitor.close();
		}
		if (this.scheduler != null) {
			this.scheduler.shutdown();
		}
	}

}
