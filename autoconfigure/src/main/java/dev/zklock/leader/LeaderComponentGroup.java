package dev.zklock.leader;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * The leader-only components of one group, started together in ascending phase order and
 * stopped together in descending order. Started and stopped on the group's own
 * {@link ComponentThread} only, so that a slow start or stop of one group never delays another
 * group's; read from any thread.
 */
final class LeaderComponentGroup {

	private static final Log logger = LogFactory.getLog(LeaderComponentGroup.class);

	private final String group;

	private final ComponentThread thread;

	private final List<Component> components = new CopyOnWriteArrayList<>();

	private volatile boolean started;

	private volatile long failedAt;

	private volatile @Nullable String failure;

	LeaderComponentGroup(String group, ComponentThread thread) {
		this.group = group;
		this.thread = thread;
	}

	/**
	 * Return the thread on which the components are started and stopped.
	 */
	ComponentThread thread() {
		return this.thread;
	}

	void add(String beanName, SmartLifecycle bean) {
		this.components.add(new Component(beanName, bean));
	}

	boolean isStarted() {
		return this.started;
	}

	/**
	 * Return how long to wait before the next start, after a start that failed not long ago.
	 */
	long retryDelayMillis(long retryDelayMillis) {
		if (this.failure == null) {
			return 0;
		}
		long since = TimeUnit.NANOSECONDS.toMillis(this.thread.nanoTime() - this.failedAt);
		return Math.max(0, retryDelayMillis - since);
	}

	/**
	 * Start every component, in ascending phase order.
	 * @return the failure of a component that did not start, whatever it threw (an
	 * {@code Error}, a checked exception thrown as Kotlin code may), or {@code null}; the
	 * components are then stopped again
	 */
	@Nullable Throwable start(long epoch) {
		this.started = true;
		for (Component component : inOrder(false)) {
			try {
				component.bean().start();
			}
			catch (Throwable thrown) {
				Throwable ex = unwrap(thrown);
				this.failedAt = this.thread.nanoTime();
				this.failure = component.beanName() + ": " + ex;
				stop("component '" + component.beanName() + "' failed to start");
				return ex;
			}
		}
		this.failure = null;
		logger.info("Started the leader-only components " + names() + " of group '" + this.group + "' (epoch "
				+ epoch + ")");
		return null;
	}

	/**
	 * Stop every component, in descending phase order, if they were started.
	 */
	void stop(String reason) {
		if (!this.started) {
			return;
		}
		for (Component component : inOrder(true)) {
			try {
				component.bean().stop();
			}
			catch (Throwable ex) {
				logger.error("Leader-only component '" + component.beanName() + "' of group '" + this.group
						+ "' failed to stop", unwrap(ex));
			}
		}
		this.started = false;
		logger.info("Stopped the leader-only components " + names() + " of group '" + this.group + "': " + reason);
	}

	List<LeaderComponentInfo> describe() {
		String failure = this.failure;
		return inOrder(false).stream()
			.map((component) -> new LeaderComponentInfo(component.beanName(), component.bean().getPhase(),
					component.bean().isRunning(), (failure != null && failure.startsWith(component.beanName() + ": "))
							? failure.substring(component.beanName().length() + 2) : null))
			.toList();
	}

	/**
	 * Return what the component threw: a checked exception thrown through the class-based
	 * proxy of a method that does not declare it comes wrapped.
	 */
	private static Throwable unwrap(Throwable ex) {
		return (ex instanceof UndeclaredThrowableException undeclared && undeclared.getUndeclaredThrowable() != null)
				? undeclared.getUndeclaredThrowable() : ex;
	}

	private List<Component> inOrder(boolean reversed) {
		List<Component> ordered = new ArrayList<>(this.components);
		Comparator<Component> byPhase = Comparator.comparingInt((component) -> component.bean().getPhase());
		ordered.sort(reversed ? byPhase.reversed() : byPhase);
		return ordered;
	}

	private List<String> names() {
		return inOrder(false).stream().map(Component::beanName).toList();
	}

	private record Component(String beanName, SmartLifecycle bean) {

	}

}
