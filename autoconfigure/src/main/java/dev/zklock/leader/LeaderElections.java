package dev.zklock.leader;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import dev.zklock.LeaderTerm;
import dev.zklock.ZkLeadership;
import dev.zklock.lock.PauseMonitor;
import dev.zklock.lock.Pauses;
import dev.zklock.zookeeper.CuratorPort;
import dev.zklock.zookeeper.ZooKeeperPort;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The elections this instance takes part in, one per group, joined when the application starts
 * and left when it stops.
 * <p>
 * Its lifecycle phase makes it join before, and leave after, the embedded web server and the
 * task executors and schedulers, so that a leader keeps its leadership while its last requests
 * and tasks finish. Scheduled tasks are only scheduled once the context has been refreshed, after
 * the first look at every election, so a leader's first run is not skipped.
 *
 * @since 0.1.0
 */
public final class LeaderElections implements ZkLeadership, SmartLifecycle, DisposableBean {

	/**
	 * The lifecycle phase.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private static final Log logger = LogFactory.getLog(LeaderElections.class);

	private static final Pauses NO_PAUSES = (since) -> false;

	private final String participantId;

	private final Duration timeout;

	private final LeadershipEvents events;

	private final GroupElections elections;

	private final @Nullable PauseMonitor pauseMonitor;

	private final LeadershipListeners listeners;

	private final LeadershipWaiters waiters = new LeadershipWaiters();

	private final ScheduledThreadPoolExecutor scheduler;

	private volatile @Nullable LeaderComponents components;

	private final Object lifecycleMonitor = new Object();

	/**
	 * Guards {@link #running} against a join, held only while elections are started or the
	 * flag is changed, never while waiting for ZooKeeper.
	 */
	private final Object joinMonitor = new Object();

	private volatile boolean running;

	/**
	 * Create the elections of the groups that leader-only methods name and of further groups.
	 * @param client the ZooKeeper client
	 * @param basePath the path under which each group has its node
	 * @param participantId the id of this instance in every election
	 * @param timeout how long to wait at start for a first look at every election, and at stop
	 * for leaving them
	 * @param publisher where leadership events are published
	 * @param methods the leader-only methods, whose groups are joined as they are found
	 * @param groups further groups to join
	 */
	public LeaderElections(CuratorFramework client, String basePath, String participantId, Duration timeout,
			ApplicationEventPublisher publisher, LeaderMethods methods, Collection<String> groups) {
		this(client, basePath, participantId, timeout, publisher, methods, groups, UnaryOperator.identity());
	}

	/**
	 * Create the elections, their checks seeing the process's pauses through a filter: for tests
	 * that place an event within a check of the leadership.
	 */
	LeaderElections(CuratorFramework client, String basePath, String participantId, Duration timeout,
			ApplicationEventPublisher publisher, LeaderMethods methods, Collection<String> groups,
			UnaryOperator<Pauses> pauses) {
		this(PauseMonitor.forClient(client), pauses, (scheduler) -> new CuratorPort(client, scheduler), basePath,
				participantId, timeout, publisher, methods, groups);
	}

	/**
	 * Create the elections over a port of the caller's choice, with no pause ever seen: for
	 * tests whose controlled scheduler runs them without a client and its threads.
	 */
	LeaderElections(ZooKeeperPort port, String basePath, String participantId, Duration timeout,
			ApplicationEventPublisher publisher, LeaderMethods methods, Collection<String> groups) {
		this(null, UnaryOperator.identity(), (scheduler) -> port, basePath, participantId, timeout, publisher, methods,
				groups);
	}

	private LeaderElections(@Nullable PauseMonitor pauseMonitor, UnaryOperator<Pauses> pauses,
			Function<ScheduledExecutorService, ZooKeeperPort> ports, String basePath, String participantId,
			Duration timeout, ApplicationEventPublisher publisher, LeaderMethods methods, Collection<String> groups) {
		this.participantId = participantId;
		this.timeout = timeout;
		this.events = new LeadershipEvents(this, participantId, publisher);
		this.pauseMonitor = pauseMonitor;
		this.listeners = new LeadershipListeners(this.events);
		this.listeners.add(this.waiters);
		Pauses seen = pauses.apply((pauseMonitor != null) ? pauseMonitor : NO_PAUSES);
		this.scheduler = scheduler();
		ZooKeeperPort port = ports.apply(this.scheduler);
		this.elections = new GroupElections((group) -> new GroupElection(group, participantId, port,
				ElectionNodes.path(basePath, group), this.listeners, seen, timeout));
		groups.forEach((group) -> join(validGroup(group)));
		methods.onGroup(this::join);
	}

	/**
	 * The thread on which the elections' retries run (their requests' replies and watches run
	 * on ZooKeeper's event thread).
	 */
	private static ScheduledThreadPoolExecutor scheduler() {
		CustomizableThreadFactory threads = new CustomizableThreadFactory("zklock-leader-");
		threads.setDaemon(true);
		ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, threads);
		scheduler.setRemoveOnCancelPolicy(true);
		scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		return scheduler;
	}

	private static String validGroup(String group) {
		try {
			return GroupNames.validate(group);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid zklock.leader.groups: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Join the election of a group, at once if the application runs: under the join monitor, so
	 * that a stop that has left the elections finds every election a join started, and a join
	 * after it starts none. A group found on another thread (a {@code @ZkLeader} method
	 * resolved late, a leader-only component created late) may be joined at any time.
	 */
	private void join(String group) {
		synchronized (this.joinMonitor) {
			GroupElection election = this.elections.join(group);
			if (this.running) {
				election.start();
			}
		}
	}

	@Override
	public String participantId() {
		return this.participantId;
	}

	@Override
	public Set<String> groups() {
		return this.elections.groups();
	}

	@Override
	public boolean isLeader(String group) {
		return election(group).isLeader();
	}

	/**
	 * Say why this instance does not lead the group.
	 */
	String notLeaderReason(String group) {
		return election(group).notLeaderReason();
	}

	@Override
	public Optional<String> currentLeader(String group) {
		ElectionNodes nodes = election(group).nodes();
		return ElectionReads.read(group, () -> nodes.participantIds(1).stream().findFirst());
	}

	@Override
	public List<String> participants(String group) {
		ElectionNodes nodes = election(group).nodes();
		return ElectionReads.read(group, () -> List.copyOf(nodes.participantIds(Integer.MAX_VALUE)));
	}

	@Override
	public OptionalLong epoch(String group) {
		GroupElection election = election(group);
		long epoch = election.leaderEpoch();
		return (epoch >= 0) ? OptionalLong.of(epoch) : ElectionReads.read(group, election.nodes()::leaderCzxid);
	}

	/**
	 * Return the current term from local state only, its epoch read with the leadership: never
	 * a read of ZooKeeper, also when the term ends while it is looked up.
	 */
	@Override
	public Optional<LeaderTerm> term(String group) {
		return election(group).term();
	}

	@Override
	public Optional<LeaderTerm> awaitLeadership(String group, Duration timeout) throws InterruptedException {
		election(group);
		return this.waiters.await(() -> term(group), timeout);
	}

	@Override
	public boolean yieldLeadership(String group) {
		GroupElection election = election(group);
		LeaderComponents components = this.components;
		if (components != null && election.isLeader()) {
			components.stopBeforeYield(group);
		}
		return election.yieldLeadership();
	}

	/**
	 * Step down without stopping the group's components first, because they are stopped.
	 */
	void yieldStopped(String group) {
		election(group).yieldLeadership();
	}

	/**
	 * Tell the components of every group of each change of leadership, from now on, and stop
	 * them before leaving the elections or yielding.
	 */
	void attach(LeaderComponents components) {
		this.components = components;
		this.listeners.add(components);
	}

	/**
	 * Tell a listener of each change of leadership from now on.
	 */
	void addListener(LeadershipListener listener) {
		this.listeners.add(listener);
	}

	@Override
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.running) {
				return;
			}
			List<CompletableFuture<Void>> firstChecks;
			synchronized (this.joinMonitor) {
				this.running = true;
				firstChecks = this.elections.all()
					.stream()
					.map(GroupElection::start)
					.toList();
			}
			await(firstChecks, "Still joining the leader elections of " + groups() + " after "
					+ this.timeout.toMillis() + "ms; continuing in the background");
		}
	}

	private void await(Collection<CompletableFuture<Void>> futures, String lateMessage) {
		try {
			CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
				.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			logger.info(lateMessage);
		}
	}

	@Override
	public void stop() {
		synchronized (this.lifecycleMonitor) {
			if (!this.running) {
				return;
			}
			synchronized (this.joinMonitor) {
				this.running = false;
			}
			LeaderComponents components = this.components;
			if (components != null) {
				components.stopAll();
			}
			Map<GroupElection, CompletableFuture<Void>> leaving = new LinkedHashMap<>();
			this.elections.all().forEach((election) -> leaving.put(election, election.stop()));
			await(leaving.values(), "Still leaving the leader elections of " + groups() + " after "
					+ this.timeout.toMillis() + "ms; deleting their nodes in the background");
			leaving.forEach((election, left) -> {
				if (!left.isDone()) {
					election.stopNow();
				}
			});
			this.events.drain(this.timeout);
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	@Override
	public void destroy() {
		stop();
		this.events.close();
		if (this.pauseMonitor != null) {
			this.pauseMonitor.close();
		}
		this.scheduler.shutdownNow();
	}

	private GroupElection election(String group) {
		return this.elections.get(group);
	}

}
