package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.ZkLockException;

/**
 * One simulated run: several instances of the real lock core ({@link LockEngine} and everything
 * under it), each on its own {@link SimClient} with several callers making asynchronous calls on
 * a few keys (shared and exclusive, with wait times, cancels, fencing tokens, kept locks), faults
 * at random moments, then a quiet phase. After every step it checks the promises of
 * {@code docs/lock-core.md}, and those made to a call where the call sees them
 * ({@link SimCallChecks}); the first broken one ends the run with a {@link Violation}.
 */
final class SimRun {

	static final String BASE = "/zklock/locks";

	private static final long MAX_STEPS = 1_000_000;

	private final long seed;

	private final SimWorld world;

	private final SimServer server = new SimServer();

	private final SimFaults faults;

	private final Plan plan;

	private final List<Instance> instances = new ArrayList<>();

	private final Map<String, List<Grant>> releasedGrants = new HashMap<>();

	private final List<Grant> activeGrants = new ArrayList<>();

	private final List<long[]> faultWindows = new ArrayList<>();

	/**
	 * When each key's node was at the end of its sequence counter, as seen after each step: from
	 * and until it was gone ({@link Long#MAX_VALUE} while it lasts). Only in the runs that start
	 * the counters near their end.
	 */
	private final Map<String, long[]> spentKeys = new HashMap<>();

	private boolean keysStartNearEnd;

	private final Breaks breaks;

	/**
	 * Forced releases draw from a source of their own, so that a run without them is the run
	 * the same seed gave before they were simulated.
	 */
	private final SplittableRandom releaseRandom;

	private final int releases;

	/**
	 * The drops as the faults stop draw from a source of their own too.
	 */
	private final SplittableRandom ends;

	private int releasesMade;

	private SimServer.@Nullable Session operator;

	private int requestsStarted;

	/**
	 * Whether some callers make blocking calls, each on a simulated thread of its own.
	 */
	private final boolean blocking;

	private final List<SimThread> threads = new ArrayList<>();

	private int blockingCalls;

	private int reentered;

	private int interrupts;

	private int faultsInjected;

	private boolean active = true;

	private @Nullable Violation violation;

	private final boolean watchReset;

	private final double refusedAtOnce;

	private final LockNodeNames[] nodeNames;

	SimRun(long seed, int traceSize, Breaks breaks) {
		this(seed, traceSize, breaks, false);
	}

	/**
	 * @param blocking whether some callers make blocking calls (drawn from a random source of
	 * their own: a caller that does not draws as it would in a run without them)
	 */
	SimRun(long seed, int traceSize, Breaks breaks, boolean blocking) {
		this.blocking = blocking;
		this.seed = seed;
		this.world = new SimWorld(seed, traceSize);
		this.ends = new SplittableRandom(seed ^ 0x3C6E_F372_FE94L);
		SimFaults faults = SimFaults.draw(this.world, this.ends);
		Plan drawn = Plan.draw(this.world);
		if (blocking && !drawn.flood() && new SplittableRandom(seed ^ 0x3C6E_F372_FE94_F82BL).nextInt(3) == 0) {
			// A third of the runs with blocking callers turn local handoff off: each blocking
			// call then has a node of its own (the node-per-call recipe), beside the key's node
			// that the instance's asynchronous calls share. A source of its own.
			drawn = drawn.withoutHandoff();
		}
		this.plan = drawn;
		if (this.plan.firstZxid != 0) {
			this.server.startAt(this.plan.firstZxid);
		}
		this.faults = this.plan.flood() ? SimFaults.NONE : faults;
		this.breaks = breaks;
		this.releaseRandom = new SplittableRandom(seed ^ 0x5DEE_CE66DL);
		this.releases = (this.plan.flood() || this.releaseRandom.nextBoolean()) ? 0 : this.releaseRandom.nextInt(1, 6);
		this.watchReset = SimFaults.watchReset(seed);
		this.refusedAtOnce = SimFaults.refusedAtOnce(seed);
		this.nodeNames = nodeNames(seed, this.plan.instances);
		// A third of the runs start every key's sequence counter a few creates before its end
		// (a random source of their own, so that the other runs are unchanged); not the reader
		// floods, whose waits are held to the handoff bound, which does not span the key node's
		// replacement at the end.
		SplittableRandom counters = new SplittableRandom(seed ^ 0x2F0A_93C1_7B4DL);
		if (counters.nextInt(3) == 0 && !this.plan.flood()) {
			this.server.startKeysAt(Integer.MAX_VALUE - counters.nextInt(1, 40));
			this.keysStartNearEnd = true;
		}
	}

	/**
	 * Draw how each instance names its lock nodes: in half the runs every instance as Curator's
	 * read-write lock (the default), in a quarter every instance as Curator's mutex, and in a
	 * quarter each instance one or the other (a fleet that changes the setting one instance at a
	 * time). A random source of its own, so that the run's other draws stay those the seed gave
	 * before.
	 */
	static LockNodeNames[] nodeNames(long seed, int instances) {
		SplittableRandom random = new SplittableRandom(seed ^ 0x510E_527F_ADE6L);
		int kind = random.nextInt(4);
		LockNodeNames[] names = new LockNodeNames[instances];
		for (int i = 0; i < instances; i++) {
			names[i] = switch (kind) {
				case 0, 1 -> LockNodeNames.READ_WRITE_LOCK;
				case 2 -> LockNodeNames.MUTEX;
				default -> random.nextBoolean() ? LockNodeNames.MUTEX : LockNodeNames.READ_WRITE_LOCK;
			};
		}
		return names;
	}

	/**
	 * What a run is made of, drawn from its seed.
	 */
	record Plan(int instances, int callersPerInstance, int keys, double shared, int requests, long maxHold,
			long maxThink, long sessionTimeout, LockSettings settings, int faults, double cancels, boolean flood,
			double longHolds, int tokensPerWrite, long firstZxid, int newEpochs) {

		Plan withoutHandoff() {
			LockSettings own = new LockSettings(false, this.settings.handoffMaxGrants(), this.settings.handoffMaxTime(),
					this.settings.keepIdleTime(), this.settings.keepMaxKeys(), this.settings.nodeNames());
			return new Plan(this.instances, this.callersPerInstance, this.keys, this.shared, this.requests, this.maxHold,
					this.maxThink, this.sessionTimeout, own, this.faults, this.cancels, this.flood, this.longHolds,
					this.tokensPerWrite, this.firstZxid, this.newEpochs);
		}

		static Plan draw(SimWorld world) {
			int instances = world.random().nextInt(3, 5);
			int callers = world.random().nextInt(1, 5);
			double shared = switch (world.random().nextInt(4)) {
				case 0 -> 0;
				case 1 -> 0.3;
				case 2 -> 0.9;
				default -> 0.6;
			};
			Duration keep = world.chance(0.5) ? Duration.ZERO : Duration.ofMillis(world.random().nextInt(20, 500));
			LockSettings settings = new LockSettings(true, world.random().nextInt(1, 33),
					Duration.ofMillis(world.random().nextInt(5, 101)), keep, world.random().nextInt(1, 4));
			// Some runs are a reader flood: the first instance's eight callers take the first key
			// shared, back to back, for as long as the run lasts, while the others ask for it too;
			// without faults, so that every wait is held to the handoff bound.
			boolean flood = world.chance(0.2);
			int keys = world.random().nextInt(1, 4);
			long maxHold = SimWorld.millis(world.random().nextInt(1, 21));
			long maxThink = SimWorld.millis(world.random().nextInt(0, 11));
			long sessionTimeout = SimWorld.millis(world.chance(0.3) ? world.random().nextInt(10_000, 20_001)
					: world.random().nextInt(1000, 4001));
			int faults = flood ? 0 : world.random().nextInt(5, 11);
			double cancels = world.chance(0.5) ? 0.1 : 0;
			double longHolds = (!flood && world.chance(0.5)) ? 0.02 : 0;
			// Fencing tokens: most runs let a node's zxid give a few tokens only, so that the
			// write for the next zxid (sent ahead, or awaited) happens all the time; half start
			// late in an epoch, near a counter's rollover, and some elect leaders (new epochs).
			int tokensPerWrite = world.chance(0.7) ? world.random().nextInt(1, 5) : FencingTokenSpace.MAX_COUNT;
			long firstZxid = world.chance(0.5) ? 0
					: ((long) world.random().nextInt(1, (1 << 19) - 4) << 32) | (0xFFFF_FFFFL - world.random().nextInt(1, 400));
			int newEpochs = world.random().nextInt(0, 3);
			return new Plan(instances, callers, keys, shared, flood ? 800 : 200, maxHold, maxThink, sessionTimeout,
					settings, faults, cancels, flood, longHolds, tokensPerWrite, firstZxid, newEpochs);
		}

	}

	/**
	 * Deliberate breaks of the checks' own inputs, and of the releasing instance's part of a
	 * forced release (which lives outside the core), to show that each check can fail.
	 * @param trustEveryGrant judge every grant as if it claimed to be valid
	 * @param deleteUnanswered release as the first version did: delete the node without the
	 * owner's answer, which the owner misses
	 */
	record Breaks(boolean trustEveryGrant, boolean deleteUnanswered) {

		static final Breaks NONE = new Breaks(false, false);

	}

	/**
	 * Run to the end.
	 * @return the first promise broken, or {@code null}
	 */
	@Nullable Violation run() {
		for (int i = 0; i < this.plan.instances; i++) {
			this.instances.add(new Instance("i" + i, this.nodeNames[i]));
		}
		scheduleFaults();
		scheduleReleases();
		for (int i = 0; i < this.plan.newEpochs; i++) {
			this.world.schedule(SimWorld.SERVER, this.world.between(0, this.activeLimit / 2), "leader elected",
					() -> {
						this.server.newEpoch();
						this.world.note("a leader is elected: zxids go on from 0x" + Long.toHexString(this.server.zxid()));
					});
		}
		SplittableRandom blockingCallers = new SplittableRandom(this.seed ^ 0x6A09_E667_F3BCL);
		for (Instance instance : this.instances) {
			boolean readers = this.plan.flood && instance == this.instances.get(0);
			for (int c = 0; c < (readers ? 8 : this.plan.callersPerInstance); c++) {
				if (this.blocking && !readers && blockingCallers.nextBoolean()) {
					BlockingCaller caller = new BlockingCaller(instance, c);
					this.world.schedule(instance.name, this.world.between(0, this.plan.maxThink), "thread starts",
							caller::start);
					continue;
				}
				Caller caller = new Caller(instance, c, readers);
				this.world.schedule(instance.name, this.world.between(0, this.plan.maxThink), "caller starts",
						caller::next);
			}
		}
		this.world.schedule(SimWorld.SERVER, SimWorld.millis(500), "container reaper", this::reap);
		while (this.violation == null && (this.active || callsInProgress())) {
			if (!step()) {
				break;
			}
			if (this.active && ((this.requestsStarted >= this.plan.requests && this.faultsInjected >= this.plan.faults)
					|| this.world.now() > this.activeLimit)) {
				quiet();
			}
			check();
			if (this.world.steps() > MAX_STEPS) {
				fail("liveness", "the run did not end within " + MAX_STEPS + " steps: " + callsDescription());
			}
			if (!this.active && this.world.now() > this.quietDeadline) {
				fail("liveness", "calls still in progress " + Duration.ofNanos(this.world.now() - this.quietStart)
						.toMillis() + " ms after the faults stopped: " + callsDescription());
			}
		}
		if (this.violation == null) {
			// Let kept locks expire, deletes finish and containers go, then nothing may be left.
			long settled = this.world.now();
			for (Instance instance : this.instances) {
				settled = Math.max(settled, instance.client.pausedUntil());
			}
			long end = settled + this.plan.settings.keepIdleTime().toNanos() + this.plan.sessionTimeout
					+ SimWorld.millis(3000);
			while (this.violation == null && step() && this.world.now() < end) {
				check();
			}
			checkNothingLeft();
		}
		SimThread.stopAll(this.threads, (stuck) -> fail("simulated threads", stuck));
		this.instances.forEach(Instance::close);
		return this.violation;
	}

	/**
	 * Run the next event; a simulated thread that blocked outside the port's wait, or failed,
	 * breaks the run.
	 */
	private boolean step() {
		return SimThread.stepBy(this.world, Long.MAX_VALUE, (stuck) -> fail("simulated threads", stuck));
	}

	private long quietStart;

	private long quietDeadline = Long.MAX_VALUE;

	private void quiet() {
		this.active = false;
		this.quietStart = this.world.now();
		this.quietDeadline = this.quietStart + 2 * this.plan.sessionTimeout * 3 + SimWorld.millis(10_000);
		for (Instance instance : this.instances) {
			if (this.ends.nextDouble() < this.faults.endDrops()) {
				// The faults stop with this drop: the link comes back soon, with the session.
				this.world.note("FAULT connection of " + instance.name + " dropped as the faults stop");
				instance.client.dropConnection(0);
				this.faultWindows.add(new long[] { this.quietStart, this.quietDeadline });
			}
		}
		this.instances.forEach((instance) -> instance.client.stopFaults());
		this.world.note("quiet phase: no more faults or calls");
	}

	private long activeLimit;

	private void scheduleFaults() {
		long cycle = this.plan.maxHold / 2 + this.plan.maxThink / 2 + SimWorld.millis(2);
		long span = Math.max(SimWorld.millis(50),
				this.plan.requests * cycle / (this.plan.instances * this.plan.callersPerInstance));
		this.activeLimit = span + 4 * this.plan.sessionTimeout + SimWorld.millis(10_000);
		for (int i = 0; i < this.plan.faults; i++) {
			long at = this.world.between(0, span);
			Instance target = this.instances.get(this.world.random().nextInt(this.instances.size()));
			this.world.schedule(SimWorld.SERVER, at, "fault", () -> inject(target));
		}
	}

	private void inject(Instance target) {
		this.faultsInjected++;
		if (!this.active) {
			return;
		}
		long timeout = this.plan.sessionTimeout;
		int kind = this.world.random().nextInt(3);
		long now = this.world.now();
		if (kind == 0 && this.faults.disconnects()) {
			long down = this.faults.downtime(this.world, timeout);
			this.world.note("FAULT connection of " + target.name + " dropped for " + down / 1_000_000 + " ms");
			target.client.dropConnection(down);
			this.faultWindows.add(new long[] { now, now + down + 2 * timeout });
		}
		else if (kind == 1 && this.faults.pauses()) {
			long length = switch (this.world.random().nextInt(3)) {
				case 0 -> this.world.between(SimWorld.millis(10), SimWorld.millis(150));
				case 1 -> this.world.between(timeout / 5, timeout * 6 / 10);
				default -> this.world.between(timeout + 1, timeout * 2);
			};
			this.world.note("FAULT " + target.name + " paused for " + length / 1_000_000 + " ms");
			target.client.pause(length);
			target.disturbances++;
			long slow = timeout * 6 / 10;
			if (this.faults.slowServer() && slow > SimWorld.millis(5500) && this.world.chance(0.5)) {
				// Right after the pause the server is slow too: a confirmation of the locks may
				// time out without any connection event.
				long delay = this.world.between(SimWorld.millis(5500), slow);
				this.world.schedule(SimWorld.SERVER, length, "fault", () -> {
					this.world.note("FAULT the server answers " + target.name + " " + delay / 1_000_000 + " ms late");
					target.client.slowLink(delay);
				});
				length += delay;
			}
			target.pauses.add(new long[] { now, now + length });
			this.faultWindows.add(new long[] { now, now + length + 2 * timeout });
		}
		else if (kind == 2 && this.faults.disconnects() && this.faults.longOutages()) {
			long down = this.world.between(timeout + 1, timeout * 2);
			this.world.note("FAULT connection of " + target.name + " dropped past its session timeout");
			target.client.dropConnection(down);
			this.faultWindows.add(new long[] { now, now + down + 2 * timeout });
		}
	}

	// Forced releases: an operator releases a node of an instance from another one. The owner
	// reads the notice when its control-node watch fires (while connected, not paused), applies
	// it through LockEngine.loseReleased, and answers; the releasing instance deletes the node
	// only after that answer (ClusterRelease, which is not simulated: its rule is).

	private void scheduleReleases() {
		long span = Math.max(SimWorld.millis(50), this.activeLimit / 2);
		for (int i = 0; i < this.releases; i++) {
			long at = this.releaseRandom.nextLong(0, span);
			Instance target = this.instances.get(this.releaseRandom.nextInt(this.instances.size()));
			this.world.schedule(SimWorld.SERVER, at, "forced release", () -> release(target));
		}
	}

	private void release(Instance target) {
		if (!this.active) {
			return;
		}
		long session = target.client.sessionId();
		List<SimServer.Node> nodes = this.server.ephemeralsUnder(BASE)
			.stream()
			.filter((node) -> node.owner == session && this.server.isAlive(session))
			.toList();
		if (nodes.isEmpty()) {
			return;
		}
		String path = nodes.get(this.releaseRandom.nextInt(nodes.size())).path;
		this.releasesMade++;
		this.world.note("RELEASE of " + path + " of " + target.name);
		if (this.breaks.deleteUnanswered()) {
			this.world.schedule(SimWorld.SERVER, this.releaseRandom.nextLong(SimWorld.millis(1), SimWorld.millis(50)),
					"releasing instance deletes without an answer", () -> operatorDelete(path));
			return;
		}
		noticeRead(target, path, session);
	}

	private void noticeRead(Instance target, String path, long session) {
		this.world.schedule(target.name, this.releaseRandom.nextLong(SimWorld.millis(1), SimWorld.millis(50)),
				"release notice read", () -> {
					if (target.client.sessionId() != session || !this.server.isAlive(session)) {
						// The session ended first: its nodes went with it, the notice is for no one.
						return;
					}
					if (!target.client.isConnected()) {
						noticeRead(target, path, session);
						return;
					}
					int held = target.engine.loseReleased(List.of(path), session, "released by a simulated operator");
					target.disturbances++;
					if (target.engine.waitingNodes().contains(path)) {
						fail("released node replaced", "a request of " + target.name + " still waits with " + path
								+ " once its release was applied");
						return;
					}
					this.world.note(target.name + " applied the release of " + path + " (" + held + " held) and answered");
					this.world.schedule(SimWorld.SERVER,
							this.releaseRandom.nextLong(SimWorld.millis(1), SimWorld.millis(30)),
							"releasing instance deletes after the answer", () -> operatorDelete(path));
				});
	}

	private void operatorDelete(String path) {
		SimServer.Session operator = this.operator;
		if (operator == null) {
			operator = this.server.openSession((callback) -> {
			});
			this.operator = operator;
		}
		this.server.delete(operator, path);
	}

	int releasesMade() {
		return this.releasesMade;
	}

	private void reap() {
		this.server.reapContainers();
		this.world.schedule(SimWorld.SERVER, SimWorld.millis(500), "container reaper", this::reap);
	}

	// Checks

	private void check() {
		if (this.violation != null) {
			return;
		}
		if (this.keysStartNearEnd) {
			noteSpentKeys();
		}
		List<Grant> trusted = new ArrayList<>();
		for (int i = 0; i < this.activeGrants.size(); i++) {
			Grant grant = this.activeGrants.get(i);
			if (grant.hold.isReleased()) {
				grant.releasedAt = this.world.now();
				this.activeGrants.remove(i--);
				this.releasedGrants.computeIfAbsent(grant.key, (k) -> new ArrayList<>()).add(grant);
				continue;
			}
			if (grant.instance.client.isPaused()) {
				continue;
			}
			boolean claimsValid = this.breaks.trustEveryGrant() || grant.hold.lock().isTrustedWithoutAsking();
			if (!claimsValid) {
				continue;
			}
			LockNode node = grant.hold.lock().node();
			SimServer.Node onServer = this.server.node(node.path());
			if (onServer == null || onServer.owner != node.sessionId() || !this.server.isAlive(node.sessionId())) {
				fail("honesty", grant + " claims to be valid, but its node " + node.path()
						+ ((onServer == null) ? " is gone" : " belongs to an ended session"));
				return;
			}
			trusted.add(grant);
		}
		for (int a = 0; a < trusted.size(); a++) {
			for (int b = a + 1; b < trusted.size(); b++) {
				Grant one = trusted.get(a);
				Grant other = trusted.get(b);
				if (one.key.equals(other.key) && (one.mode == LockMode.EXCLUSIVE || other.mode == LockMode.EXCLUSIVE)) {
					fail("exclusion", one + " and " + other + " are both valid");
					return;
				}
			}
		}
	}

	private void noteSpentKeys() {
		long now = this.world.now();
		for (int k = 0; k < this.plan.keys; k++) {
			String key = "k" + k;
			SimServer.Node node = this.server.node(LockNodes.path(BASE, key));
			boolean spent = node != null && node.cversion == Integer.MAX_VALUE;
			long[] window = this.spentKeys.get(key);
			if (spent && window == null) {
				this.spentKeys.put(key, new long[] { now, Long.MAX_VALUE });
			}
			else if (!spent && window != null && window[1] == Long.MAX_VALUE) {
				window[1] = now;
			}
		}
	}

	/**
	 * Return whether one of the call's keys had its node at the end of its sequence counter at
	 * some time between the call's ask and its grant.
	 */
	private boolean waitedOnASpentKey(Call call, long grantedAt) {
		for (String key : call.keys) {
			long[] window = this.spentKeys.get(key);
			if (window != null && window[0] <= grantedAt && window[1] >= call.askedAt) {
				return true;
			}
		}
		return false;
	}

	private void tokenFixed(Grant grant, long token) {
		grant.token = token;
		for (Grant earlier : this.releasedGrants.getOrDefault(grant.key, List.of())) {
			boolean conflicts = grant.mode == LockMode.EXCLUSIVE || earlier.mode == LockMode.EXCLUSIVE;
			if (conflicts && earlier.token != 0 && earlier.releasedAt < grant.start && token <= earlier.token) {
				fail("token order", grant + " got token " + token + ", not above " + earlier + " (token "
						+ earlier.token + "), which was released before it was granted");
				return;
			}
		}
	}

	private void checkWait(Call call, long grantedAt) {
		for (long[] window : this.faultWindows) {
			if (window[0] <= grantedAt && window[1] >= call.askedAt) {
				return;
			}
		}
		if (this.plan.longHolds > 0
				|| (this.plan.faults > 0 && (this.faults.dropAfterApply() > 0 || this.faults.slowReply() > 0))) {
			return; // holds of seconds, or faults anywhere: no bound to hold waits to
		}
		LockSettings settings = this.plan.settings;
		long maxHold = Math.max(this.plan.maxHold, SimWorld.millis(5));
		long bound = this.plan.instances * (settings.handoffMaxTime().toNanos() + maxHold + SimWorld.millis(20))
				+ this.plan.instances * this.plan.callersPerInstance * (this.plan.maxHold + SimWorld.millis(5))
				+ settings.keepIdleTime().toNanos() + SimWorld.millis(50);
		if (waitedOnASpentKey(call, grantedAt)) {
			// The key node's replacement at the end of its counter: the nodes named before the
			// end leave within the bound (no node joins them), a stalled request's next retry
			// deletes the key node and the one after creates it again (Stalls, a retry every
			// 100 ms), and the call then waits in the new node's queue, within the bound again.
			bound = 2 * bound + 2 * TimeUnit.MILLISECONDS.toNanos(Stalls.RETRY_DELAY_MILLIS);
		}
		long waited = grantedAt - call.askedAt;
		if (waited > bound) {
			fail("handoff bound", call + " waited " + waited / 1_000_000 + " ms in a run without faults, beyond "
					+ bound / 1_000_000 + " ms");
		}
	}

	private void checkNothingLeft() {
		if (callsInProgress()) {
			fail("liveness", "calls still in progress at the end: " + callsDescription());
			return;
		}
		List<SimServer.Node> left = this.server.ephemeralsUnder(BASE);
		if (!left.isEmpty()) {
			fail("nothing left behind", "lock nodes left " + Duration.ofNanos(this.world.now() - this.quietStart).toMillis()
					+ " ms after the last call: " + left.stream().map((node) -> node.path).toList());
		}
	}

	private boolean callsInProgress() {
		return this.instances.stream().anyMatch((instance) -> !instance.calls.isEmpty());
	}

	private String callsDescription() {
		List<String> calls = new ArrayList<>();
		this.instances.forEach((instance) -> instance.calls.forEach((call) -> calls.add(call.toString())));
		StringBuilder keys = new StringBuilder();
		for (Instance instance : this.instances) {
			keys.append("\n  ").append(instance.name).append(instance.client.isConnected() ? "" : " (disconnected)")
				.append(": ").append(instance.engine.keyLocks().all());
		}
		for (int k = 0; k < this.plan.keys; k++) {
			SimServer.Node key = this.server.node(LockNodes.path(BASE, "k" + k));
			keys.append("\n  server k").append(k).append(": ").append((key != null) ? key.children : "no key node");
		}
		return calls + keys.toString();
	}

	private void fail(String promise, String what) {
		if (this.violation == null) {
			this.violation = new Violation(this.seed, promise, what, this.world.now(), this.world.trace(),
					describe());
		}
	}

	String describe() {
		return "plan " + this.plan + (this.blocking ? ", blocking callers" : "") + ", faults " + this.faults + (this.watchReset ? "" : ", no watch reset")
				+ ((this.refusedAtOnce > 0) ? ", requests refused at once while disconnected " + this.refusedAtOnce : "")
				+ ", node names " + Arrays.toString(this.nodeNames);
	}

	long steps() {
		return this.world.steps();
	}

	int requests() {
		return this.requestsStarted;
	}

	int faultsInjected() {
		return this.faultsInjected;
	}

	/**
	 * Return how many calls were blocking, how many of them called again on a key they held, and
	 * how many were interrupted while they waited or worked.
	 */
	int[] blockingCounts() {
		return new int[] { this.blockingCalls, this.reentered, this.interrupts };
	}

	/**
	 * Return how many transactions the instances' threads sent and waited for, and how many of
	 * those were answered after the thread's time was up.
	 */
	int[] waitedFor() {
		int[] counts = new int[2];
		for (Instance instance : this.instances) {
			int[] client = instance.client.waitedFor();
			counts[0] += client[0];
			counts[1] += client[1];
		}
		return counts;
	}

	/**
	 * Return how many requests the instances' clients refused at once, on the calling thread.
	 */
	int refusedAtOnce() {
		int refused = 0;
		for (Instance instance : this.instances) {
			refused += instance.client.refused();
		}
		return refused;
	}

	/**
	 * A promise broken in a run.
	 */
	record Violation(long seed, String promise, String what, long at, String trace, String run) {

		@Override
		public String toString() {
			return "Seed " + this.seed + " broke " + this.promise + " at " + this.at / 1_000_000.0 + " ms: " + this.what
					+ "\n" + this.run + "\nReplay it with:\n  ./mvnw -pl autoconfigure -am verify -Dtest=LockCoreSimulationTests"
					+ " -Dsurefire.failIfNoSpecifiedTests=false -Dzklock.sim.seed=" + this.seed
					+ (this.run.contains("blocking callers") ? " -Dzklock.sim.blocking=true" : "")
					+ "\nThe last steps:\n" + this.trace;
		}

	}

	// Instances and their callers

	private final class Instance {

		final String name;

		final SimClient client;

		final LockEngine engine;

		final List<Call> calls = new ArrayList<>();

		final Executor executor;

		/**
		 * Connection events, pauses and forced releases seen so far.
		 */
		int disturbances;

		/**
		 * The pauses, from their start to their end (and a slow server's after them).
		 */
		final List<long[]> pauses = new ArrayList<>();

		/**
		 * The executor task running now, if any.
		 */
		SimCallChecks.@Nullable Handover handover;

		final SimCallChecks.ServiceOrder serviceOrder = new SimCallChecks.ServiceOrder();

		Instance(String name, LockNodeNames nodeNames) {
			this.name = name;
			SimClient client = new SimClient(SimRun.this.world, SimRun.this.server, name, SimRun.this.faults,
					SimRun.this.plan.sessionTimeout);
			this.client = client.watchReset(SimRun.this.watchReset)
				.refusesWhileDisconnected(SimRun.this.refusedAtOnce, SimRun.this.seed ^ name.hashCode());
			this.engine = new LockEngine(this.client, this.client::mayHavePausedSince, BASE, false,
					LockCallListener.NONE, SimRun.this.plan.settings.withNodeNames(nodeNames),
					SimRun.this.plan.tokensPerWrite);
			this.client.addConnectionListener((state) -> this.disturbances++);
			this.executor = (task) -> {
				long session = this.client.sessionId();
				SimCallChecks.Handover handover = new SimCallChecks.Handover(SimRun.this.world.now(), this.disturbances,
						session, SimRun.this.server.isAlive(session));
				SimRun.this.world.schedule(name, SimRun.this.world.between(0, 100_000), "executor task", () -> {
					this.handover = handover;
					try {
						task.run();
					}
					finally {
						this.handover = null;
					}
				});
			};
		}

		boolean pausedBetween(long from, long to) {
			for (long[] pause : this.pauses) {
				if (pause[0] <= to && pause[1] + SimCallChecks.AFTER_PAUSE >= from) {
					return true;
				}
			}
			return false;
		}

		void close() {
			this.engine.close();
		}

	}

	/**
	 * Draw a caller's next call, and count it as started.
	 */
	private Call newCall(Instance instance, String caller, boolean reader) {
		SimWorld world = this.world;
		int first = world.random().nextInt(this.plan.keys);
		List<String> keys = (this.plan.keys > 1 && world.chance(0.1))
				? List.of("k" + Math.min(first, (first + 1) % this.plan.keys),
						"k" + Math.max(first, (first + 1) % this.plan.keys))
				: List.of("k" + first);
		LockMode mode = world.chance(this.plan.shared) ? LockMode.SHARED : LockMode.EXCLUSIVE;
		double wait = world.random().nextDouble();
		if (reader) {
			keys = List.of("k0");
			mode = LockMode.SHARED;
			wait = 1;
		}
		Duration waitTime = (wait < 0.1) ? Duration.ZERO
				: (wait < 0.6) ? Duration.ofNanos(world.between(SimWorld.millis(1), SimWorld.millis(300)))
						: Duration.ofSeconds(-1);
		Call call = new Call(instance.name + caller + "#" + this.requestsStarted, keys, mode, waitTime, world.now(),
				this.requestsStarted, instance.disturbances);
		this.requestsStarted++;
		instance.calls.add(call);
		world.note(call + " asks");
		return call;
	}

	/**
	 * Return how long a call holds its locks before its work ends.
	 */
	private long holdTime(boolean reader) {
		return reader ? this.world.between(SimWorld.millis(1), SimWorld.millis(5))
				: this.world.chance(this.plan.longHolds()) ? this.world.between(this.plan.sessionTimeout() / 2,
						this.plan.sessionTimeout() * 2)
						: this.world.between(0, this.plan.maxHold);
	}

	/**
	 * @param blocking whether the call was blocking: one that will not wait first reads whether
	 * another instance visibly holds a key its instance does not use, and joins the key's queue
	 * only after that read, so it is judged only as the call it let by
	 */
	private void checkOrder(Instance instance, Call call, Acquisition acquisition, boolean blocking) {
		if (call.keys.size() > 1 || acquisition.holds().get(0).keyLock() == null) {
			// A call with a node of its own is ordered by its node's sequence, with the other
			// instances' nodes, not by the instance's queue.
			return;
		}
		boolean undisturbed = call.disturbances == instance.disturbances && instance.pauses.isEmpty();
		boolean readFirst = blocking && call.waitTime.isZero();
		String broken = instance.serviceOrder.served(call.keys.get(0), call.toString(), call.order,
				acquisition.holds().get(0).grantedAt(), undisturbed && !readFirst);
		if (broken != null) {
			fail("first come first served", broken);
		}
	}

	private final class Caller {

		private final Instance instance;

		private final int number;

		private final boolean reader;

		Caller(Instance instance, int number, boolean reader) {
			this.instance = instance;
			this.number = number;
			this.reader = reader;
		}

		void next() {
			if (!SimRun.this.active) {
				return;
			}
			SimWorld world = SimRun.this.world;
			Plan plan = SimRun.this.plan;
			Call call = newCall(this.instance, "/c" + this.number, this.reader);
			CompletableFuture<@Nullable Acquisition> future = this.instance.engine.acquireAsync(call.keys, call.mode,
					call.waitTime, this.instance.executor);
			if (!this.reader && world.chance(plan.cancels)) {
				world.schedule(this.instance.name, world.between(0, SimWorld.millis(100)), call + " cancels",
						() -> future.cancel(false));
			}
			future.whenComplete((acquisition, ex) -> answered(call, acquisition, ex));
		}

		private void answered(Call call, @Nullable Acquisition acquisition, @Nullable Throwable ex) {
			SimWorld world = SimRun.this.world;
			if (!(ex instanceof CancellationException)) {
				checkAnswer(call, acquisition);
			}
			if (acquisition == null) {
				world.note(call + " ends without the lock: " + ((ex != null) ? ex.getClass().getSimpleName() : "timed out"));
				end(call);
				return;
			}
			long now = world.now();
			checkWait(call, now);
			List<Grant> grants = new ArrayList<>();
			for (Hold hold : acquisition.holds()) {
				Grant grant = new Grant(this.instance, call, hold, hold.key(), hold.mode(), hold.grantedAt());
				grants.add(grant);
				SimRun.this.activeGrants.add(grant);
			}
			world.note(call + " granted");
			checkOrder(this.instance, call, acquisition, false);
			long hold = holdTime(this.reader);
			if (world.chance(0.5)) {
				Grant asking = grants.get(world.random().nextInt(grants.size()));
				world.schedule(this.instance.name, world.between(0, hold), call + " asks its token",
						() -> asking.hold.fencingTokenAsync().whenComplete((token, failure) -> {
							if (token != null && !asking.hold.isReleased()) {
								world.note(call + " has token " + token);
								tokenFixed(asking, token);
							}
						}));
			}
			world.schedule(this.instance.name, hold, call + " finishes", () -> {
				String lostAtEnd = SimCallChecks.lost(SimRun.this.server, acquisition.holds());
				this.instance.engine.finishAsync(acquisition).whenComplete((lost, failure) -> {
					world.note(call + " released" + ((lost != null) ? " (" + lost.getMessage() + ")" : ""));
					if (lostAtEnd != null && !(lost instanceof LockLostException)) {
						fail("lost reported", call + " ended " + ((failure != null) ? "with " + failure : "normally")
								+ " though " + lostAtEnd + " when its work ended");
					}
					end(call);
				});
			});
		}

		/**
		 * Judge a call's answer as it comes, where its work would start.
		 */
		private void checkAnswer(Call call, @Nullable Acquisition acquisition) {
			long now = SimRun.this.world.now();
			SimCallChecks.Handover handover = this.instance.handover;
			if (handover == null) {
				fail("on the executor", call + " was answered outside its executor");
			}
			if (now > SimCallChecks.answerBy(call.askedAt, call.waitTime)
					&& !this.instance.pausedBetween(call.askedAt, now)) {
				fail("wait time", call + " was answered " + (now - call.askedAt) / 1_000_000 + " ms after it asked");
			}
			if (acquisition == null
					|| (handover != null && handover.disturbedSince(this.instance.disturbances, SimRun.this.server))) {
				return;
			}
			String invalid = SimCallChecks.notValid(SimRun.this.server, acquisition.holds());
			if (invalid != null) {
				fail("starts valid", call + "'s work starts, though " + invalid);
			}
		}

		private void end(Call call) {
			this.instance.calls.remove(call);
			long think = this.reader ? SimRun.this.world.between(0, 200_000)
					: SimRun.this.world.between(0, SimRun.this.plan.maxThink);
			SimRun.this.world.schedule(this.instance.name, think, "caller thinks", this::next);
		}

	}

	/**
	 * A caller on a thread of its own, making blocking calls ({@link LockEngine#acquire}, the work,
	 * {@link Acquisition#ensureHeld}, {@link LockEngine#release}, as {@code ZkLockTemplate} does),
	 * some of them reentrant, some interrupted while they wait.
	 */
	private final class BlockingCaller {

		private final Instance instance;

		private final int number;

		private final SimThread thread;

		private @Nullable Call current;

		BlockingCaller(Instance instance, int number) {
			this.instance = instance;
			this.number = number;
			this.thread = new SimThread(SimRun.this.world, instance.name, instance.name + "/t" + number);
			SimRun.this.threads.add(this.thread);
		}

		void start() {
			this.thread.start(this::calls);
		}

		private void calls() {
			SimWorld world = SimRun.this.world;
			while (SimRun.this.active && SimRun.this.violation == null) {
				Call call = newCall(this.instance, "/t" + this.number, false);
				SimRun.this.blockingCalls++;
				this.current = call;
				call(call);
				this.current = null;
				// A thread of a pool starts its next task with its interrupt status cleared.
				Thread.interrupted();
				this.instance.calls.remove(call);
				this.thread.sleep(world.between(0, SimRun.this.plan.maxThink));
			}
		}

		private void call(Call call) {
			SimWorld world = SimRun.this.world;
			if (world.chance(SimRun.this.plan.cancels)) {
				world.schedule(this.instance.name, world.between(0, SimWorld.millis(100)), call + " is interrupted", () -> {
					if (this.current == call) {
						SimRun.this.interrupts++;
						this.thread.interrupt();
					}
				});
			}
			Acquisition acquisition;
			try {
				acquisition = this.instance.engine.acquire(call.keys, call.mode, call.waitTime);
			}
			catch (InterruptedException ex) {
				world.note(call + " ends without the lock: interrupted");
				return;
			}
			catch (ZkLockException ex) {
				checkReturn(call, null);
				world.note(call + " ends without the lock: " + ex.getMessage());
				return;
			}
			checkReturn(call, acquisition);
			if (acquisition == null) {
				world.note(call + " ends without the lock: timed out");
				return;
			}
			List<Grant> grants = new ArrayList<>();
			for (Hold hold : acquisition.holds()) {
				// A grant with a node of its own has no local grant time: it starts by the return.
				long start = (hold.keyLock() != null) ? hold.grantedAt() : world.now();
				Grant grant = new Grant(this.instance, call, hold, hold.key(), hold.mode(), start);
				grants.add(grant);
				SimRun.this.activeGrants.add(grant);
			}
			world.note(call + " granted");
			checkWait(call, world.now());
			checkOrder(this.instance, call, acquisition, true);
			long hold = holdTime(false);
			long before = world.between(0, hold);
			this.thread.sleep(before);
			if (world.chance(0.5)) {
				askToken(call, grants.get(world.random().nextInt(grants.size())));
			}
			if (world.chance(0.3)) {
				reenter(call, grants.get(world.random().nextInt(grants.size())));
			}
			this.thread.sleep(hold - before);
			String lostAtEnd = SimCallChecks.lost(SimRun.this.server, acquisition.holds());
			LockLostException lost = null;
			try {
				acquisition.ensureHeld();
			}
			catch (LockLostException ex) {
				lost = ex;
			}
			if (lostAtEnd != null && lost == null) {
				fail("lost reported", call + " ended normally though " + lostAtEnd + " when its work ended");
			}
			this.instance.engine.release(acquisition);
			for (Hold held : acquisition.holds()) {
				if (!held.isReleased()) {
					fail("released on return", call + " returned, but its grant of " + held.key() + " is not released");
				}
			}
			world.note(call + " released" + ((lost != null) ? " (" + lost.getMessage() + ")" : ""));
		}

		/**
		 * Judge a blocking call's answer as it returns, where its work would start: on the
		 * calling thread, so nothing can happen between the core's answer and the work.
		 */
		private void checkReturn(Call call, @Nullable Acquisition acquisition) {
			long now = SimRun.this.world.now();
			if (now > SimCallChecks.answerBy(call.askedAt, call.waitTime)
					&& !this.instance.pausedBetween(call.askedAt, now)) {
				fail("wait time", call + " returned " + (now - call.askedAt) / 1_000_000 + " ms after it asked");
			}
			if (acquisition == null) {
				return;
			}
			String invalid = SimCallChecks.notValid(SimRun.this.server, acquisition.holds());
			if (invalid != null) {
				fail("starts valid", call + "'s work starts, though " + invalid);
			}
		}

		private void askToken(Call call, Grant grant) {
			try {
				long token = grant.hold.fencingToken();
				SimRun.this.world.note(call + " has token " + token);
				tokenFixed(grant, token);
			}
			catch (LockLostException ex) {
				SimRun.this.world.note(call + " got no token: " + ex.getMessage());
			}
		}

		/**
		 * Call again, from inside the work, on a key the call holds: the inner call shares the
		 * outer call's grant, and its end releases only itself.
		 */
		private void reenter(Call call, Grant outer) {
			SimWorld world = SimRun.this.world;
			LockMode mode = (outer.hold.grantMode() == LockMode.SHARED || world.chance(0.5)) ? LockMode.SHARED
					: LockMode.EXCLUSIVE;
			if (outer.hold.grantMode() == LockMode.SHARED && world.chance(0.2)) {
				try {
					this.instance.engine.acquire(List.of(outer.key), LockMode.EXCLUSIVE, Duration.ofSeconds(-1));
					fail("reentrancy", call + " upgraded its shared lock on " + outer.key + " to an exclusive one");
				}
				catch (ZkLockException | InterruptedException ex) {
					world.note(call + " may not upgrade: " + ex.getMessage());
				}
				return;
			}
			SimRun.this.reentered++;
			Acquisition inner;
			try {
				inner = this.instance.engine.acquire(List.of(outer.key), mode, Duration.ZERO);
			}
			catch (InterruptedException | ZkLockException ex) {
				fail("reentrancy", call + "'s reentrant call on " + outer.key + " failed: " + ex);
				return;
			}
			Hold hold = (inner != null) ? inner.holds().get(0) : null;
			if (hold == null || hold.owner() || hold.lock() != outer.hold.lock()) {
				fail("reentrancy", call + "'s reentrant call on " + outer.key + " did not share the outer grant: "
						+ ((hold != null) ? "a grant of its own" : "refused"));
				return;
			}
			world.note(call + " reenters " + outer.key + " " + mode);
			this.thread.sleep(world.between(0, SimRun.this.plan.maxHold / 2));
			try {
				inner.ensureHeld();
			}
			catch (LockLostException ex) {
				world.note(call + "'s reentrant call lost its lock: " + ex.getMessage());
			}
			this.instance.engine.release(inner);
			if (!hold.isReleased() || hold.isValid()) {
				fail("reentrancy", call + "'s reentrant call on " + outer.key + " returned, but its lock is not released");
			}
			if (outer.hold.isReleased()) {
				fail("reentrancy", call + "'s reentrant call on " + outer.key + " released the outer call's grant");
			}
		}

	}

	private record Call(String name, List<String> keys, LockMode mode, Duration waitTime, long askedAt, long order,
			int disturbances) {

		@Override
		public String toString() {
			return this.name + " " + this.mode + " " + this.keys
					+ (this.waitTime.isNegative() ? "" : " wait " + this.waitTime.toMillis() + "ms");
		}

	}

	private static final class Grant {

		final Instance instance;

		final Call call;

		final Hold hold;

		final String key;

		final LockMode mode;

		final long start;

		long releasedAt = Long.MAX_VALUE;

		long token;

		Grant(Instance instance, Call call, Hold hold, String key, LockMode mode, long start) {
			this.instance = instance;
			this.call = call;
			this.hold = hold;
			this.key = key;
			this.mode = mode;
			this.start = start;
		}

		@Override
		public String toString() {
			return "the grant of " + this.key + " to " + this.call + " on node " + LockNodes.name(this.hold.lock().node().path());
		}

	}

}
