package dev.zklock.leader;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import dev.zklock.LeaderTerm;
import dev.zklock.ZkLeadership;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.SmartApplicationListener;

/**
 * Starts the leader-only components ({@link dev.zklock.annotation.ZkLeaderComponent
 * @ZkLeaderComponent}) of a group when this instance leads it and the application is ready,
 * and stops them when the leadership ends.
 * <p>
 * The starts and stops of each group run on a thread of the group's own
 * ({@link ComponentThread}), in the order of the group's leadership changes, so that a stop
 * always follows the start it undoes and a slow stop of one group does not delay another's. A
 * revocation is handed to that thread at the moment it happens (the connection was suspended:
 * well before the server can expire the session and another instance can take over). Yielding,
 * leaving the elections and closing the context wait for the components to stop before the
 * election node is given up, and a group granted while the elections stop starts nothing. Only
 * zklock starts them: a start from outside, such as the context's {@code start()}, starts them
 * only if this instance leads the group ({@link LeaderComponentInterceptor}).
 *
 * @since 0.2.0
 */
public final class LeaderComponents
		implements LeadershipListener, SmartApplicationListener, ApplicationContextAware, DisposableBean {

	private static final Log logger = LogFactory.getLog(LeaderComponents.class);

	private static final long RETRY_DELAY_MILLIS = 1000;

	private final Supplier<@Nullable ZkLeadership> leadership;

	private final Map<String, LeaderComponentGroup> groups = new ConcurrentHashMap<>();

	private final Duration stopTimeout;

	private final Function<String, ComponentExecutor> executors;

	private final LongSupplier nanoTime;

	private volatile @Nullable ZkLeadership attached;

	private @Nullable ApplicationContext applicationContext;

	private volatile boolean closed;

	/**
	 * Create an instance.
	 * @param leadership the leadership, looked up when the application is ready; without one,
	 * the components never start
	 * @param stopTimeout how long yielding and closing wait for the components to stop
	 */
	public LeaderComponents(Supplier<@Nullable ZkLeadership> leadership, Duration stopTimeout) {
		this(leadership, stopTimeout, ComponentExecutor::ownThread, System::nanoTime);
	}

	/**
	 * Create an instance whose groups' threads run on executors of the caller's choice, with
	 * their clock: the way the tests' simulator runs them on its simulated time.
	 */
	LeaderComponents(Supplier<@Nullable ZkLeadership> leadership, Duration stopTimeout,
			Function<String, ComponentExecutor> executors, LongSupplier nanoTime) {
		this.leadership = leadership;
		this.stopTimeout = stopTimeout;
		this.executors = executors;
		this.nanoTime = nanoTime;
	}

	void register(String group, String beanName, SmartLifecycle bean) {
		this.groups
			.computeIfAbsent(group,
					(name) -> new LeaderComponentGroup(name,
							new ComponentThread(name, this.stopTimeout, this.executors.apply(name), this.nanoTime)))
			.add(beanName, bean);
	}

	/**
	 * Return the thread that starts and stops a group's components: the race tests wait on it.
	 */
	ComponentThread groupThread(String group) {
		LeaderComponentGroup components = this.groups.get(group);
		if (components == null) {
			throw new IllegalArgumentException("No leader-only component in group '" + group + "'");
		}
		return components.thread();
	}

	/**
	 * Return the groups that have leader-only components.
	 * @return the groups
	 */
	public Set<String> groups() {
		return new TreeSet<>(this.groups.keySet());
	}

	/**
	 * Describe the leader-only components of a group.
	 * @param group the group
	 * @return the components in phase order, none if the group has none
	 */
	public List<LeaderComponentInfo> describe(String group) {
		LeaderComponentGroup components = this.groups.get(group);
		return (components != null) ? components.describe() : List.of();
	}

	@Override
	public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
		return ApplicationReadyEvent.class.isAssignableFrom(eventType)
				|| ContextClosedEvent.class.isAssignableFrom(eventType);
	}

	@Override
	public void setApplicationContext(ApplicationContext applicationContext) {
		this.applicationContext = applicationContext;
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		// A child context's events reach its parent's listeners too: only our own context's
		// readiness and close start and stop the components.
		if (event instanceof ApplicationReadyEvent ready && isOurs(ready.getApplicationContext())) {
			ready();
		}
		else if (event instanceof ContextClosedEvent closed && isOurs(closed.getApplicationContext())) {
			closing();
		}
	}

	private boolean isOurs(ApplicationContext context) {
		return this.applicationContext == null || this.applicationContext == context;
	}

	/**
	 * Start the components of the groups this instance leads, and of each group it is granted
	 * from now on: the application is ready.
	 */
	void ready() {
		if (this.groups.isEmpty() || this.attached != null) {
			return;
		}
		ZkLeadership leadership = this.leadership.get();
		if (leadership == null) {
			logger.warn("Leader-only components " + this.groups.keySet() + " never start: there is no leader election");
			return;
		}
		if (leadership instanceof LeaderElections elections) {
			elections.attach(this);
		}
		this.attached = leadership;
		this.groups.forEach((group, components) -> components.thread().submit(() -> startIfLeading(group)));
	}

	/**
	 * Stop the components of every group, for good: the context closes.
	 */
	void closing() {
		this.closed = true; // No start from now on.
		stopAll();
	}

	@Override
	public void granted(String group, long epoch) {
		requestStart(group);
	}

	@Override
	public void revoked(String group, long epoch, String reason) {
		LeaderComponentGroup components = this.groups.get(group);
		if (components != null) {
			String why = "this instance is no longer the leader (epoch " + epoch + "): " + reason;
			components.thread().submit(() -> components.stop(why));
		}
	}

	/**
	 * Return whether the calling thread is the one that starts and stops the group's
	 * components: their lifecycle calls from it are zklock's own.
	 */
	boolean startsAndStops(String group) {
		LeaderComponentGroup components = this.groups.get(group);
		return components != null && components.thread().isCurrent();
	}

	/**
	 * Start the components of a group, as something other than zklock asked (the context's
	 * {@code start()}), if this instance leads the group once the application is ready; else
	 * nothing: they start when it is granted the group.
	 */
	void requestStart(String group) {
		LeaderComponentGroup components = this.groups.get(group);
		if (this.attached != null && components != null) {
			components.thread().submit(() -> startIfLeading(group));
		}
	}

	/**
	 * Stop the components of a group, as something other than zklock asked (the context's
	 * {@code stop()}), and wait for them to stop.
	 */
	void requestStop(String group) {
		LeaderComponentGroup components = this.groups.get(group);
		if (components != null) {
			components.thread().runAndWait(() -> components.stop("the application stopped them"));
		}
	}

	/**
	 * Stop the components of a group because this instance is about to yield it.
	 */
	void stopBeforeYield(String group) {
		LeaderComponentGroup components = this.groups.get(group);
		if (components != null) {
			components.thread().runAndWait(() -> components.stop("this instance yields the leadership"));
		}
	}

	/**
	 * Stop the components of every group, each on its own thread at the same time, as the
	 * application stops, and wait for them all, up to the stop timeout.
	 */
	void stopAll() {
		long deadline = this.nanoTime.getAsLong() + this.stopTimeout.toNanos();
		Map<LeaderComponentGroup, @Nullable Future<?>> stopping = new LinkedHashMap<>();
		this.groups.values()
			.forEach((components) -> stopping.put(components,
					components.thread().runOrSubmit(() -> components.stop("the application stops"))));
		stopping.forEach((components, done) -> components.thread().await(done, deadline));
	}

	private void startIfLeading(String group) {
		ZkLeadership leadership = this.attached;
		LeaderComponentGroup components = this.groups.get(group);
		if (this.closed || leadership == null || components == null || components.isStarted()) {
			return;
		}
		if (leadership instanceof LeaderElections elections && !elections.isRunning()) {
			// Granted while the elections stop: the components were stopped, on this thread, and
			// the node is about to be deleted. Starting them now would run them beside the next
			// leader's, with nothing waiting for their stop.
			return;
		}
		Optional<LeaderTerm> term = leadership.term(group);
		if (term.isEmpty()) {
			return;
		}
		long delay = components.retryDelayMillis(RETRY_DELAY_MILLIS);
		if (delay > 0) {
			components.thread().schedule(() -> startIfLeading(group), delay);
			return;
		}
		Throwable failure = components.start(term.get().epoch());
		if (failure != null) {
			logger.error("A leader-only component of group '" + group + "' failed to start; this instance yields "
					+ "the leadership so that another one does the job", failure);
			if (leadership instanceof LeaderElections elections) {
				elections.yieldStopped(group);
			}
			else {
				leadership.yieldLeadership(group);
			}
		}
	}

	@Override
	public void destroy() {
		this.closed = true;
		this.groups.values().forEach((components) -> components.thread().close());
	}

}
