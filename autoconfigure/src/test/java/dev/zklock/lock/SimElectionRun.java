package dev.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.zklock.LeadershipLostException;
import dev.zklock.leader.SimulatedComponents;
import dev.zklock.leader.SimulatedLeaderCalls;
import dev.zklock.leader.SimulatedParticipant;

/**
 * One simulated run of the elections: several instances, each the real election classes
 * ({@link SimulatedParticipant}, the {@code GroupElection} under it) on its own
 * {@link SimClient}, taking part in one to three groups, with connection drops, pauses past the
 * session, yields and applications stopped and started again at random moments, then a quiet
 * phase and the close of every instance. Each instance runs one or two leader-only components
 * per group ({@link SimComponent}), started and stopped by the real {@code LeaderComponents}
 * ({@link SimulatedComponents}) on simulated threads ({@link SimComponentThread}); in half the
 * runs their starts and stops fail now and then, with what a component may throw. In half the
 * runs each participant also has a thread of its own ({@link SimThread}) that makes blocking
 * {@code @ZkLeader} calls through a Spring proxy ({@link SimulatedLeaderCalls}), some of which
 * ask to be interrupted when their term ends. After every
 * step it checks the promises of {@code docs/elections.md}; the first broken one ends the run.
 */
final class SimElectionRun {

	static final String BASE = "/zklock/leader";

	private static final long MAX_STEPS = 2_000_000;

	/**
	 * How long yielding, stopping and closing wait for the components to stop: longer than any
	 * stop and pause of a run, so that they never give up waiting.
	 */
	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(120);


	private final long seed;

	private final SimWorld world;

	private final SimServer server = new SimServer();

	private final SimFaults faults;

	private final Plan plan;

	private final Breaks breaks;

	private final List<Instance> instances = new ArrayList<>();

	private final Map<String, Long> lastEpochs = new HashMap<>();

	private int faultsInjected;

	private int grants;

	private int calls;

	private boolean active = true;

	private boolean closing;

	private boolean waiting;

	private @Nullable Violation violation;

	private final boolean watchReset;

	private final double refusedAtOnce;

	private final double dropAfterCreate;

	private final java.util.SplittableRandom failures;

	private final double failureChance;

	private int failedStarts;

	private final boolean blockingCallers;

	private final List<SimThread> threads = new ArrayList<>();

	private int blockingCalls;

	private int callsLost;

	private int callsInterrupted;

	private final SimComponent.Failures componentFailures = new SimComponent.Failures() {

		@Override
		public @Nullable Throwable start(SimComponent component) {
			Throwable failure = failure(component, "start");
			SimElectionRun.this.failedStarts += (failure != null) ? 1 : 0;
			return failure;
		}

		@Override
		public @Nullable Throwable stop(SimComponent component) {
			Throwable failure = failure(component, "stop");
			SimElectionRun.this.failedStops += (failure != null) ? 1 : 0;
			return failure;
		}

	};

	private int failedStops;

	SimElectionRun(long seed, int traceSize, Breaks breaks) {
		this.seed = seed;
		this.world = new SimWorld(seed, traceSize);
		this.faults = SimFaults.draw(this.world, new java.util.SplittableRandom(seed ^ 0x3C6E_F372_FE94L));
		this.plan = Plan.draw(this.world);
		this.breaks = breaks;
		this.watchReset = SimFaults.watchReset(seed);
		this.refusedAtOnce = SimFaults.refusedAtOnce(seed);
		// In a third of the runs, the link often breaks right after an election node's create was
		// applied: the create's outcome is unknown, and the reads sent with it are resent, perhaps
		// ahead of it. A random source of its own, so that the other draws stay those the seed
		// gave before.
		java.util.SplittableRandom creates = new java.util.SplittableRandom(seed ^ 0xBB67_AE85_84CAL);
		this.dropAfterCreate = (creates.nextInt(3) == 0) ? 0.3 : 0;
		// In half the runs, a component's start or stop fails now and then, while the faults
		// last. A random source of its own, as above.
		this.failures = new java.util.SplittableRandom(seed ^ 0x3C6E_F372_A54FL);
		this.failureChance = (this.failures.nextInt(2) == 0) ? this.failures.nextDouble(0.05, 0.4) : 0;
		// In half the runs, blocking leader-only calls on threads of their own. A source of its
		// own again: the other half of the runs are those the seed gave before.
		this.blockingCallers = new java.util.SplittableRandom(seed ^ 0x510E_527F_ADE6L).nextInt(2) == 0;
	}

	/**
	 * What a run is made of, drawn from its seed.
	 * @param instances how many instances take part
	 * @param groups how many groups there are; each instance joins one or more of them
	 * @param sessionTimeout the clients' session timeout
	 * @param faults how many faults are injected
	 * @param actions how many yields and stops of an application are made
	 * @param span how long the active phase lasts at most
	 */
	record Plan(int instances, int groups, long sessionTimeout, int faults, int actions, long span) {

		static Plan draw(SimWorld world) {
			int instances = world.random().nextInt(3, 6);
			int groups = world.random().nextInt(1, 4);
			long sessionTimeout = SimWorld.millis(world.chance(0.3) ? world.random().nextInt(10_000, 20_001)
					: world.random().nextInt(1000, 4001));
			int faults = world.random().nextInt(3, 11);
			int actions = world.random().nextInt(2, 13);
			long span = world.between(SimWorld.millis(200), 4 * sessionTimeout);
			return new Plan(instances, groups, sessionTimeout, faults, actions, span);
		}

	}

	/**
	 * Deliberate breaks of the checks' own inputs, to show that each check can fail.
	 * @param trustEveryLeader judge every participant that says it leads as if it trusted its
	 * leadership without asking, a paused one too
	 * @param yieldWithoutStopping make a participant yield as a bare election would, without
	 * stopping its components first (and without judging that)
	 */
	record Breaks(boolean trustEveryLeader, boolean yieldWithoutStopping) {

		static final Breaks NONE = new Breaks(false, false);

	}

	/**
	 * Run to the end.
	 * @return the first promise broken, or {@code null}
	 */
	@Nullable Violation run() {
		for (int i = 0; i < this.plan.instances; i++) {
			this.instances.add(new Instance("i" + i, groupsOf(i)));
		}
		for (Instance instance : this.instances) {
			this.world.schedule(instance.name, this.world.between(0, SimWorld.millis(300)), instance.name + " is ready",
					instance.components::ready);
			for (Participant participant : instance.participants) {
				this.world.schedule(instance.name, this.world.between(0, SimWorld.millis(20)), participant + " starts",
						participant::start);
				this.world.schedule(instance.name, this.world.between(0, SimWorld.millis(300)), participant + " calls",
						participant::call);
				if (participant.caller != null) {
					LeaderCaller caller = participant.caller;
					this.world.schedule(instance.name, this.world.between(0, SimWorld.millis(300)),
							participant + " starts its blocking calls", () -> caller.thread.start(caller::calls));
				}
			}
		}
		for (int i = 0; i < this.plan.faults; i++) {
			Instance target = pick();
			this.world.schedule(SimWorld.SERVER, this.world.between(0, this.plan.span), "fault", () -> inject(target));
		}
		for (int i = 0; i < this.plan.actions; i++) {
			Instance target = pick();
			this.world.schedule(target.name, this.world.between(0, this.plan.span), "action", () -> act(target));
		}
		this.world.schedule(SimWorld.SERVER, SimWorld.millis(500), "container reaper", this::reap);
		long quietAt = this.plan.span + SimWorld.millis(1);
		while (this.violation == null && step()) {
			if (this.active && this.world.now() > quietAt) {
				quiet();
			}
			check();
			if (!this.active && everyGroupLed() && componentsOnLeadersOnly()) {
				break;
			}
			if (!this.active && this.world.now() > this.quietDeadline) {
				fail("liveness", "a group has no leader, or its leader's components do not run (or run elsewhere) "
						+ (this.world.now() - this.quietStart) / 1_000_000 + " ms after the faults stopped: "
						+ leadersDescription());
			}
			if (this.world.steps() > MAX_STEPS) {
				fail("liveness", "the run did not end within " + MAX_STEPS + " steps: " + leadersDescription());
			}
		}
		if (this.violation == null) {
			closeAll();
		}
		SimThread.stopAll(this.threads, (stuck) -> fail("simulated threads", stuck));
		return this.violation;
	}

	/**
	 * Run the next event; a simulated thread that blocked outside the port's wait, or failed,
	 * breaks the run.
	 */
	private boolean step() {
		return SimThread.stepBy(this.world, Long.MAX_VALUE, (stuck) -> fail("simulated threads", stuck));
	}

	private List<String> groupsOf(int instance) {
		List<String> groups = new ArrayList<>();
		for (int g = 0; g < this.plan.groups; g++) {
			if (g == instance % this.plan.groups || this.world.chance(0.6)) {
				groups.add("g" + g);
			}
		}
		return groups;
	}

	private Instance pick() {
		return this.instances.get(this.world.random().nextInt(this.instances.size()));
	}

	private long quietStart;

	private long quietDeadline = Long.MAX_VALUE;

	private void quiet() {
		this.active = false;
		this.quietStart = this.world.now();
		long pausedUntil = this.instances.stream().mapToLong((instance) -> instance.client.pausedUntil()).max().orElse(0);
		this.quietDeadline = Math.max(this.quietStart, pausedUntil) + 3 * this.plan.sessionTimeout
				+ SimWorld.millis(10_000);
		for (Instance instance : this.instances) {
			instance.client.stopFaults();
			for (Participant participant : instance.participants) {
				if (!participant.running) {
					this.world.schedule(instance.name, SimWorld.millis(1), participant + " starts again", () -> {
						if (!this.closing && !participant.running) {
							participant.start();
						}
					});
				}
			}
		}
		this.world.note("quiet phase: no more faults or actions");
	}

	private void reap() {
		this.server.reapContainers();
		this.world.schedule(SimWorld.SERVER, SimWorld.millis(500), "container reaper", this::reap);
	}

	// Faults and actions

	private void inject(Instance target) {
		this.faultsInjected++;
		if (!this.active) {
			return;
		}
		long timeout = this.plan.sessionTimeout;
		// Never a session ended by the server while its client still believes it connected: the
		// server ends a session only after its timeout without a word from the client, which
		// notices the silence first (at most 60 % of the timeout). An operator closing the session
		// or deleting the leader's node leaves no such margin (docs/elections.md).
		switch (this.world.random().nextInt(3)) {
			case 0 -> {
				long down = this.faults.downtime(this.world, timeout);
				this.world.note("FAULT connection of " + target.name + " dropped for " + down / 1_000_000 + " ms");
				target.client.dropConnection(down);
			}
			case 1 -> {
				long down = this.world.between(timeout + 1, timeout * 2);
				this.world.note("FAULT connection of " + target.name + " dropped past its session timeout");
				target.client.dropConnection(down);
			}
			default -> {
				long length = this.world.chance(0.5) ? this.world.between(SimWorld.millis(10), timeout * 6 / 10)
						: this.world.between(timeout + 1, timeout * 2);
				this.world.note("FAULT " + target.name + " paused for " + length / 1_000_000 + " ms");
				target.client.pause(length);
			}
		}
	}

	private void act(Instance target) {
		if (!this.active || target.participants.isEmpty()) {
			return;
		}
		if (this.waiting) {
			// The simulator waits on one thread: a wait within a wait would hold the first one
			// until the second ends. The action comes a little later instead.
			this.world.schedule(target.name, this.world.between(SimWorld.millis(1), SimWorld.millis(20)), "action",
					() -> act(target));
			return;
		}
		this.waiting = true;
		try {
			actNow(target);
		}
		finally {
			this.waiting = false;
		}
	}

	private void actNow(Instance target) {
		Participant participant = target.participants.get(this.world.random().nextInt(target.participants.size()));
		if (participant.running && participant.election.epoch() >= 0 && this.world.chance(0.5)) {
			// Its components stop, and are waited for, before it steps down.
			// (stepsDown judges it.)
			boolean yielded = this.breaks.yieldWithoutStopping() ? participant.election.yieldLeadership()
					: target.components.yieldLeadership(participant.group);
			this.world.note(participant + " yields: " + yielded);
		}
		else if (participant.running) {
			// The application's context stopped (its components first, waited for), and
			// started again a little later.
			target.components.requestStop(participant.group);
			if (!stoppedBeforeLeaving(participant, "leaves its election")) {
				return;
			}
			participant.stop();
			this.world.schedule(target.name, this.world.between(SimWorld.millis(1), this.plan.sessionTimeout),
					participant + " starts again", () -> {
						if (this.active && !participant.running) {
							participant.start();
							target.components.requestStart(participant.group);
						}
					});
		}
	}

	// Checks

	private void check() {
		if (this.violation != null) {
			return;
		}
		for (int g = 0; g < this.plan.groups; g++) {
			String group = "g" + g;
			List<Participant> trusted = new ArrayList<>();
			for (Instance instance : this.instances) {
				if (instance.client.isPaused()) {
					continue; // A paused leader may believe it leads, until it wakes.
				}
				for (Participant participant : instance.participants) {
					if (!participant.group.equals(group)) {
						continue;
					}
					boolean believes = this.breaks.trustEveryLeader() ? participant.election.epoch() >= 0
							: participant.election.leadsWithoutAsking();
					if (believes) {
						if (!honest(participant, "it believes it leads")) {
							return;
						}
						trusted.add(participant);
					}
				}
			}
			if (trusted.size() > 1) {
				fail("one leader", trusted + " all believe they lead group " + group);
				return;
			}
			checkComponents(group);
		}
	}

	/**
	 * A group's components run only where it is led, or for as long as their stop may take
	 * once the leadership was revoked; never on two instances at once.
	 */
	private void checkComponents(String group) {
		Participant runningOn = null;
		long now = this.world.now();
		for (Instance instance : this.instances) {
			if (instance.client.isPaused()) {
				continue; // Frozen with its process, until it wakes.
			}
			for (Participant participant : instance.participants) {
				if (!participant.group.equals(group) || !participant.componentsRunning()) {
					continue;
				}
				long wokeAt = this.world.pausedUntil(instance.name);
				long stopFrom = Math.max(participant.revokedAt, wokeAt);
				boolean stopping = participant.revokedAt >= 0 && now - stopFrom <= participant.stopBound;
				if (participant.election.epoch() < 0 && !stopping) {
					fail("components follow leadership", participant + " runs " + participant.runningComponents()
							+ " but does not lead; " + ((participant.revokedAt < 0) ? "it never was revoked"
									: "its leadership was revoked " + (now - participant.revokedAt) / 1_000_000.0
											+ " ms ago, its stop takes at most " + participant.stopBound / 1_000_000.0
											+ " ms")
							+ ((wokeAt >= 0) ? ", it woke from a pause " + (now - wokeAt) / 1_000_000.0 + " ms ago" : ""));
					return;
				}
				if (wokeAt > participant.grantedAt && !participant.election.leadsWithoutAsking()) {
					// Started before a pause that may have outlasted the session, they run until
					// the client notices that its connection is gone, and their stop ends.
					continue;
				}
				if (runningOn != null) {
					fail("exclusive components", runningOn + " runs " + runningOn.runningComponents() + " and "
							+ participant + " runs " + participant.runningComponents() + " at the same time");
					return;
				}
				runningOn = participant;
			}
		}
	}

	/**
	 * A participant gives up its node (yields, or leaves its election) only once its
	 * components stopped.
	 */
	private boolean stoppedBeforeLeaving(Participant participant, String what) {
		if (participant.componentsRunning()) {
			fail("stop before yield", participant + " " + what + " while " + participant.runningComponents()
					+ " still run");
			return false;
		}
		return true;
	}

	/**
	 * A participant of an instance stepped down through its components: a yield, or the yield
	 * after a component failed to start.
	 */
	private void stepsDown(Instance instance, String group, String why) {
		for (Participant participant : instance.participants) {
			if (participant.group.equals(group)) {
				this.world.note(participant + " " + why);
				stoppedBeforeLeaving(participant, why);
			}
		}
	}

	/**
	 * A component's start or stop fails, sometimes, while the faults last: with a runtime
	 * exception, an {@code Error}, or a checked exception.
	 */
	private @Nullable Throwable failure(SimComponent component, String what) {
		if (!this.active || this.failureChance == 0 || this.failures.nextDouble() >= this.failureChance) {
			return null;
		}
		String message = component + " failed to " + what;
		this.world.note("FAULT " + message);
		return switch (this.failures.nextInt(3)) {
			case 0 -> new RuntimeException(message, null, false, false) {
			};
			case 1 -> new Error(message, null, false, false) {
			};
			default -> new Exception(message, null, false, false) {
			};
		};
	}

	/**
	 * Return whether each group's leader runs all its components and no other instance any.
	 */
	private boolean componentsOnLeadersOnly() {
		for (Instance instance : this.instances) {
			for (Participant participant : instance.participants) {
				boolean leads = participant.running && participant.election.leadsWithoutAsking();
				if (leads ? !participant.allComponentsRunning() : participant.componentsRunning()) {
					return false;
				}
			}
		}
		return true;
	}

	private boolean honest(Participant participant, String when) {
		String dishonest = whyDishonest(participant);
		if (dishonest != null) {
			fail("honesty", participant + ": " + when + ", but " + dishonest);
			return false;
		}
		return true;
	}

	/**
	 * Say why the participant does not lead on the server (its node is gone, belongs to an
	 * ended session, or is not the lowest of its group), or return {@code null} if it does.
	 */
	private @Nullable String whyDishonest(Participant participant) {
		String node = participant.election.node();
		SimServer.Node onServer = (node != null) ? this.server.node(node) : null;
		long session = participant.instance.client.sessionId();
		if (onServer == null || onServer.owner != session || !this.server.isAlive(session)) {
			return "its node " + node + ((onServer == null) ? " is gone" : " belongs to an ended session");
		}
		SimServer.Node group = this.server.node(groupPath(participant.group));
		List<String> order = (group != null) ? electionOrder(group.children) : List.of();
		if (order.isEmpty() || !LockNodes.path(groupPath(participant.group), order.get(0)).equals(node)) {
			return "its node " + node + " is not the lowest of " + order;
		}
		return null;
	}

	private void granted(Participant participant, long epoch) {
		this.grants++;
		this.world.note(participant + " leads, epoch " + epoch);
		Long last = this.lastEpochs.put(participant.group, epoch);
		if (last != null && epoch < last) {
			fail("epoch order", participant + " leads with epoch " + epoch + ", below the epoch " + last
					+ " of an earlier term of group " + participant.group);
		}
	}

	private boolean everyGroupLed() {
		boolean allRunning = this.instances.stream()
			.flatMap((instance) -> instance.participants.stream())
			.allMatch((participant) -> participant.running);
		if (!allRunning) {
			return false;
		}
		for (int g = 0; g < this.plan.groups; g++) {
			String group = "g" + g;
			long leading = this.instances.stream()
				.flatMap((instance) -> instance.participants.stream())
				.filter((participant) -> participant.group.equals(group) && participant.running
						&& participant.election.leadsWithoutAsking())
				.count();
			if (leading != 1) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Leave every election, let the deletions finish and the containers go: nothing of the
	 * elections may be left on the server or in the clients.
	 */
	private void closeAll() {
		this.closing = true;
		this.world.note("every group has a leader: every instance leaves its elections");
		List<java.util.concurrent.CompletableFuture<Void>> stops = new ArrayList<>();
		for (Instance instance : this.instances) {
			// The context closes: the components stop and are waited for, then the elections
			// are left.
			instance.components.close();
			for (Participant participant : instance.participants) {
				if (!stoppedBeforeLeaving(participant, "leaves its election as the application closes")) {
					return;
				}
				stops.add(participant.stop());
			}
		}
		long closedAt = this.world.now();
		long pausedUntil = this.instances.stream().mapToLong((instance) -> instance.client.pausedUntil()).max().orElse(0);
		long end = Math.max(closedAt, pausedUntil) + this.plan.sessionTimeout + SimWorld.millis(3000);
		while (this.violation == null && step() && this.world.now() < end) {
			check();
		}
		if (this.violation != null) {
			return;
		}
		if (stops.stream().anyMatch((stop) -> !stop.isDone())) {
			fail("nothing left behind", "a participant had not left its election "
					+ (this.world.now() - closedAt) / 1_000_000 + " ms after it was stopped");
			return;
		}
		List<String> left = this.server.ephemeralsUnder(BASE).stream().map((node) -> node.path).toList();
		if (!left.isEmpty()) {
			fail("nothing left behind", "election nodes left after every instance stopped: " + left);
			return;
		}
		for (Instance instance : this.instances) {
			List<String> watched = instance.client.watchedUnder(BASE);
			if (!watched.isEmpty()) {
				fail("nothing left behind", instance.name + " still watches " + watched);
				return;
			}
			for (Participant participant : instance.participants) {
				if (participant.componentsRunning()) {
					fail("nothing left behind", participant + " still runs " + participant.runningComponents()
							+ " after its application closed");
					return;
				}
			}
		}
	}

	private String leadersDescription() {
		StringBuilder description = new StringBuilder();
		for (Instance instance : this.instances) {
			description.append("\n  ").append(instance.name).append(instance.client.isConnected() ? "" : " (disconnected)");
			for (Participant participant : instance.participants) {
				description.append(' ')
					.append(participant.group)
					.append(participant.running ? "" : " (stopped)")
					.append(participant.election.leadsWithoutAsking() ? " leads" : "")
					.append(" runs ")
					.append(participant.runningComponents())
					.append(" node ")
					.append(participant.election.node());
			}
		}
		for (int g = 0; g < this.plan.groups; g++) {
			SimServer.Node group = this.server.node(groupPath("g" + g));
			description.append("\n  server g").append(g).append(": ").append((group != null) ? group.children : "none");
		}
		return description.toString();
	}

	private static String groupPath(String group) {
		return LockNodes.path(BASE, group);
	}

	private static List<String> electionOrder(Iterable<String> children) {
		List<String> names = new ArrayList<>();
		children.forEach(names::add);
		names.removeIf((name) -> !name.matches(".*n-\\d{10}"));
		names.sort(java.util.Comparator.comparingLong((name) -> Long.parseLong(name.substring(name.length() - 10))));
		return names;
	}

	/**
	 * Run the next event due by a time and check the promises after it: what a wait for a
	 * component thread's task does while it waits.
	 */
	private boolean stepBy(long time) {
		if (this.violation != null
				|| !SimThread.stepBy(this.world, time, (stuck) -> fail("simulated threads", stuck))) {
			return false;
		}
		check();
		return true;
	}

	private void fail(String promise, String what) {
		if (this.violation == null) {
			this.violation = new Violation(this.seed, promise, what, this.world.now(), this.world.trace(), describe());
		}
	}

	String describe() {
		return "plan " + this.plan + ", faults " + this.faults + (this.watchReset ? "" : ", no watch reset")
				+ ((this.failureChance > 0) ? ", components fail " + this.failureChance : "")
				+ (this.blockingCallers ? ", blocking leader-only calls" : "")
				+ ((this.dropAfterCreate > 0) ? ", drops after creates " + this.dropAfterCreate : "")
				+ ((this.refusedAtOnce > 0) ? ", requests refused at once while disconnected " + this.refusedAtOnce : "");
	}

	long steps() {
		return this.world.steps();
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

	int faultsInjected() {
		return this.faultsInjected;
	}

	int grants() {
		return this.grants;
	}

	/**
	 * Return how many components' starts failed.
	 */
	int failedStarts() {
		return this.failedStarts;
	}

	/**
	 * Return how many components' stops failed.
	 */
	int failedStops() {
		return this.failedStops;
	}

	int calls() {
		return this.calls;
	}

	/**
	 * Return how many blocking leader-only calls ran their work.
	 */
	int blockingCalls() {
		return this.blockingCalls;
	}

	/**
	 * Return how many blocking leader-only calls ended with a {@code LeadershipLostException}.
	 */
	int callsLost() {
		return this.callsLost;
	}

	/**
	 * Return how many blocking leader-only calls were interrupted as their term ended.
	 */
	int callsInterrupted() {
		return this.callsInterrupted;
	}

	/**
	 * A promise broken in a run.
	 */
	record Violation(long seed, String promise, String what, long at, String trace, String run) {

		@Override
		public String toString() {
			return "Seed " + this.seed + " broke " + this.promise + " at " + this.at / 1_000_000.0 + " ms: " + this.what
					+ "\n" + this.run + "\nReplay it with:\n  ./mvnw -pl autoconfigure -am verify"
					+ " -Dtest=ElectionSimulationTests -Dsurefire.failIfNoSpecifiedTests=false -Dzklock.sim.seed="
					+ this.seed + "\nThe last steps:\n" + this.trace;
		}

	}

	private final class Instance {

		final String name;

		final SimClient client;

		final List<Participant> participants = new ArrayList<>();

		final Map<String, SimComponentThread> threads = new HashMap<>();

		final SimulatedComponents components;

		final SimulatedLeaderCalls leaderCalls;

		Instance(String name, List<String> groups) {
			SimWorld world = SimElectionRun.this.world;
			this.name = name;
			SimClient client = new SimClient(world, SimElectionRun.this.server, name, SimElectionRun.this.faults,
					SimElectionRun.this.plan.sessionTimeout);
			client.dropAfterSequentialCreates(SimElectionRun.this.dropAfterCreate);
			this.client = client.watchReset(SimElectionRun.this.watchReset)
				.refusesWhileDisconnected(SimElectionRun.this.refusedAtOnce, SimElectionRun.this.seed ^ name.hashCode());
			this.components = new SimulatedComponents(name, STOP_TIMEOUT, this::thread, world::now,
					(group, why) -> stepsDown(this, group, why));
			for (String group : groups) {
				this.participants.add(new Participant(this, group));
			}
			Map<String, SimulatedParticipant> elections = new HashMap<>();
			this.participants.forEach((participant) -> elections.put(participant.group, participant.election));
			this.leaderCalls = new SimulatedLeaderCalls(name, elections, this::work);
		}

		/**
		 * The work of a blocking leader-only call, on its participant's thread, once its term
		 * let it through.
		 */
		private void work(String group, long epoch) throws Exception {
			for (Participant participant : this.participants) {
				if (participant.group.equals(group)) {
					participant.caller.work(epoch);
				}
			}
		}

		SimComponentThread thread(String group) {
			return this.threads.computeIfAbsent(group, (key) -> new SimComponentThread(SimElectionRun.this.world,
					this.name, this.name + "/" + group + " components", SimElectionRun.this::stepBy));
		}

	}

	private final class Participant {

		final Instance instance;

		final String group;

		final SimulatedParticipant election;

		final List<SimComponent> components = new ArrayList<>();

		final @Nullable LeaderCaller caller;

		/**
		 * The longest its components' thread may take to stop them once a revocation is handed
		 * over: a start in progress, then the stop, and the thread's wake-ups.
		 */
		final long stopBound;

		long revokedAt = -1;

		long grantedAt = -1;

		boolean running;

		Participant(Instance instance, String group) {
			this.instance = instance;
			this.group = group;
			this.election = new SimulatedParticipant(group, instance.name, instance.client, groupPath(group),
					instance.client::mayHavePausedSince, new SimulatedParticipant.Listener() {

						@Override
						public void granted(long epoch) {
							SimElectionRun.this.granted(Participant.this, epoch);
							Participant.this.grantedAt = SimElectionRun.this.world.now();
							instance.components.granted(group, epoch);
						}

						@Override
						public void revoked(long epoch, String reason) {
							SimElectionRun.this.world.note(Participant.this + " no longer leads: " + reason);
							Participant.this.revokedAt = SimElectionRun.this.world.now();
							instance.components.revoked(group, epoch, reason);
							instance.leaderCalls.revoked(group, epoch, reason);
							if (Participant.this.caller != null) {
								Participant.this.caller.revoked(epoch);
							}
						}

					});
			instance.components.join(group, this.election);
			SimWorld world = SimElectionRun.this.world;
			long sessionTimeout = SimElectionRun.this.plan.sessionTimeout;
			long bound = SimWorld.millis(1);
			for (int c = world.random().nextInt(1, 3); c > 0; c--) {
				String name = this + " component " + c;
				long start = world.chance(0.5) ? 0 : world.between(1, SimWorld.millis(20));
				long stop = world.chance(0.5) ? 0 : world.between(1, sessionTimeout / 20);
				SimComponent component = new SimComponent(world, instance.name, name, world.random().nextInt(3), start,
						stop, instance.thread(group), SimElectionRun.this.componentFailures);
				this.components.add(component);
				instance.components.register(group, name, component);
				bound += start + stop;
			}
			this.stopBound = bound;
			this.caller = SimElectionRun.this.blockingCallers ? new LeaderCaller(this) : null;
		}

		boolean componentsRunning() {
			for (SimComponent component : this.components) {
				if (component.isRunning()) {
					return true;
				}
			}
			return false;
		}

		boolean allComponentsRunning() {
			for (SimComponent component : this.components) {
				if (!component.isRunning()) {
					return false;
				}
			}
			return true;
		}

		List<SimComponent> runningComponents() {
			return this.components.stream().filter(SimComponent::isRunning).toList();
		}

		void start() {
			this.running = true;
			this.election.start();
		}

		/**
		 * A leader-only call, now and then for as long as the run lasts: it asks whether the
		 * participant leads and, if it does, starts its work, which the checks judge.
		 */
		void call() {
			SimElectionRun run = SimElectionRun.this;
			if (run.closing || run.violation != null) {
				return;
			}
			if (this.running) {
				this.election.leads().thenAccept((leads) -> {
					if (leads && run.violation == null && !this.instance.client.isPaused()) {
						run.calls++;
						honest(this, "a leader-only call starts");
					}
				});
			}
			run.world.schedule(this.instance.name, run.world.between(SimWorld.millis(20), SimWorld.millis(300)),
					this + " calls", this::call);
		}

		java.util.concurrent.CompletableFuture<Void> stop() {
			this.running = false;
			return this.election.stop();
		}

		@Override
		public String toString() {
			return this.instance.name + "/" + this.group;
		}

	}


	/**
	 * A participant's thread of blocking {@code @ZkLeader} calls, made through the instance's
	 * Spring proxy for as long as the faults last: each asks for the group's term (waiting for
	 * the server's confirmation after a pause), and, if it leads, works a while. Half of them
	 * ask to be interrupted when their term ends.
	 * <p>
	 * Its checks: a call's work starts only while the participant leads on the server
	 * (honesty); a call that returns, rather than ending with a {@link LeadershipLostException},
	 * still leads with the node it started with (lost reported), unless its leadership was
	 * revoked after its work had ended (a revocation racing the return); an interruptible call
	 * has its thread interrupted when its term is revoked, and only then.
	 */
	private final class LeaderCaller {

		final Participant participant;

		final SimThread thread;

		private boolean interruptible;

		private boolean working;

		private long epoch = -1;

		private @Nullable String node;

		private long workEnded = -1;

		private boolean inCall;

		private boolean revokedWhileWorking;

		private final java.util.Set<Long> revokedInCall = new java.util.HashSet<>();

		LeaderCaller(Participant participant) {
			this.participant = participant;
			this.thread = new SimThread(SimElectionRun.this.world, participant.instance.name,
					participant + " caller");
			SimElectionRun.this.threads.add(this.thread);
		}

		void calls() {
			SimElectionRun run = SimElectionRun.this;
			SimWorld world = run.world;
			while (run.active && run.violation == null) {
				this.interruptible = world.chance(0.5);
				this.epoch = -1;
				this.node = null;
				this.workEnded = -1;
				this.revokedInCall.clear();
				this.inCall = true;
				boolean ran;
				try {
					ran = this.participant.instance.leaderCalls.call(this.participant.group, this.interruptible);
				}
				catch (LeadershipLostException ex) {
					run.callsLost++;
					world.note(this.participant + "'s blocking call ends: " + ex.getMessage());
					ran = false;
				}
				catch (InterruptedException ex) {
					// Interrupted as its term ended, and resumed since (the same node granted
					// again after a reconnect): the interrupt reaches the caller.
					world.note(this.participant + "'s blocking call ends interrupted");
					ran = false;
				}
				catch (Exception ex) {
					fail("leader-only calls", this.participant + "'s blocking call failed: " + ex);
					return;
				}
				this.inCall = false;
				if (ran) {
					returned();
				}
				// A thread of a pool starts its next task with its interrupt status cleared.
				Thread.interrupted();
				this.thread.sleep(world.between(SimWorld.millis(20), SimWorld.millis(300)));
			}
		}

		/**
		 * The call's work, on this thread: it checks that the participant leads, then works
		 * (an interruptible wait).
		 */
		void work(long epoch) throws Exception {
			SimElectionRun run = SimElectionRun.this;
			run.blockingCalls++;
			this.epoch = epoch;
			this.node = this.participant.election.node();
			if (!honest(this.participant, "a blocking leader-only call starts")) {
				return;
			}
			if (epoch != this.participant.election.epoch()) {
				fail("honesty", this.participant + ": a blocking leader-only call starts in the term of epoch " + epoch
						+ ", but the participant leads in epoch " + this.participant.election.epoch());
				return;
			}
			this.working = true;
			this.revokedWhileWorking = false;
			try {
				this.thread.await(new java.util.concurrent.CompletableFuture<Void>(),
						run.world.between(0, SimWorld.millis(50)));
				// Its work is done.
			}
			catch (java.util.concurrent.TimeoutException ex) {
				if (this.interruptible && this.revokedWhileWorking) {
					fail("interrupted on revoke", this.participant + "'s interruptible call was not interrupted when "
							+ "its term (epoch " + epoch + ") was revoked");
				}
			}
			catch (InterruptedException ex) {
				run.callsInterrupted++;
				if (!this.revokedInCall.contains(epoch)) {
					fail("interrupted on revoke", this.participant + "'s blocking call was interrupted, but its term "
							+ "(epoch " + epoch + ") was not revoked");
				}
				throw ex;
			}
			finally {
				this.working = false;
				this.workEnded = run.world.now();
			}
		}

		/**
		 * The participant's leadership of a term was revoked: a running interruptible call of
		 * that term is interrupted, which wakes its thread at once.
		 */
		void revoked(long epoch) {
			if (this.inCall) {
				this.revokedInCall.add(epoch);
			}
			if (this.working && epoch == this.epoch) {
				this.revokedWhileWorking = true;
				// An interrupt wakes the thread; the work judges whether it came.
				this.thread.wakeUp();
			}
		}

		/**
		 * A call that returned leads still, with the node its work started with.
		 */
		private void returned() {
			SimElectionRun run = SimElectionRun.this;
			if (run.violation != null || this.epoch < 0) {
				return;
			}
			String node = this.participant.election.node();
			String dishonest = java.util.Objects.equals(node, this.node) ? whyDishonest(this.participant)
					: "its node is now " + node + ", not " + this.node;
			if (dishonest != null && this.participant.revokedAt < this.workEnded) {
				fail("lost reported", this.participant + "'s blocking call (epoch " + this.epoch
						+ ") returned as if its term were valid, but " + dishonest);
			}
		}

	}

}
