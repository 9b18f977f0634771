package dev.zklock.leader;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.Future;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;

import org.springframework.context.SmartLifecycle;

/**
 * The threads of the real {@link LeaderComponents} around a revocation, explored by Fray's
 * controlled scheduler: the election's thread (a {@link SteppedLeadership} whose term ends, then
 * the listener's {@code revoked}), the application's thread (ready, or the context's
 * {@code stop()} and {@code start()} through {@link LeaderComponentInterceptor}) and each group's
 * {@link ComponentThread}, on its own {@code ScheduledThreadPoolExecutor} as in production, run
 * in the interleavings the scheduler chooses. Once every thread is done, a component runs only if
 * its group is led, and one group's slow stop has not held up another group's.
 * <p>
 * Runs in the fray-races execution (the fray profile), on the JDK 25 that Fray instruments.
 */
@ExtendWith(FrayTestExtension.class)
class LeaderComponentsFrayTests {

	private static final int ITERATIONS = 2000;

	private static final String GROUP = "jobs";

	private static final String OTHER_GROUP = "reports";

	private static final long EPOCH = 3;

	private static final Method START = method("start");

	private static final Method STOP = method("stop");

	/**
	 * The application gets ready (the group's start is handed to its component thread) while the
	 * election's thread revokes the group.
	 */
	@ConcurrencyTest(iterations = ITERATIONS)
	void componentStartedAsTheApplicationIsReadyIsNotLeftRunningByARevocation() {
		SteppedLeadership leadership = new SteppedLeadership();
		leadership.grant(GROUP, EPOCH);
		Component job = new Component(null);
		LeaderComponents components = components(leadership);
		components.register(GROUP, "job", job);
		Thread revoking = RaceThreads.start(() -> revoke(leadership, components, GROUP));
		components.ready();
		RaceThreads.join(revoking);
		drain(components, GROUP);
		try {
			RaceThreads.check(!job.running, "the component runs while its group is not led");
		}
		finally {
			components.destroy();
		}
	}

	/**
	 * The group's component runs; the context's {@code stop()} and {@code start()} go through the
	 * component's interceptor while the election's thread revokes the group.
	 */
	@ConcurrencyTest(iterations = ITERATIONS)
	void contextStoppedAndStartedAgainstARevocationLeavesTheComponentStopped() {
		SteppedLeadership leadership = new SteppedLeadership();
		leadership.grant(GROUP, EPOCH);
		Component job = new Component(null);
		LeaderComponents components = components(leadership);
		components.register(GROUP, "job", job);
		components.ready();
		drain(components, GROUP);
		try {
			RaceThreads.check(job.running, "the component of a led group did not start");
			LeaderComponentInterceptor fromOutside = new LeaderComponentInterceptor(components, GROUP);
			Thread revoking = RaceThreads.start(() -> revoke(leadership, components, GROUP));
			lifecycle(fromOutside, job, STOP);
			lifecycle(fromOutside, job, START);
			RaceThreads.join(revoking);
			drain(components, GROUP);
			RaceThreads.check(!job.running, "the component runs while its group is not led");
		}
		finally {
			components.destroy();
		}
	}

	/**
	 * The components of two groups run; one suspension revokes both, and the stop of the first
	 * ends only once the second group's component has stopped: each group's stop must run on its
	 * own thread, not behind the other's.
	 */
	@ConcurrencyTest(iterations = ITERATIONS)
	void slowStopOfOneGroupDoesNotHoldUpAnotherGroupsStop() {
		SteppedLeadership leadership = new SteppedLeadership();
		leadership.grant(GROUP, EPOCH);
		leadership.grant(OTHER_GROUP, EPOCH);
		Component report = new Component(null);
		Component job = new Component(report);
		LeaderComponents components = components(leadership);
		components.register(GROUP, "job", job);
		components.register(OTHER_GROUP, "report", report);
		components.ready();
		drain(components, GROUP);
		drain(components, OTHER_GROUP);
		try {
			RaceThreads.check(job.running && report.running, "the components of led groups did not start");
			Thread revoking = RaceThreads.start(() -> {
				revoke(leadership, components, GROUP);
				revoke(leadership, components, OTHER_GROUP);
			});
			RaceThreads.join(revoking);
			drain(components, GROUP);
			drain(components, OTHER_GROUP);
			RaceThreads.check(!job.running && !report.running, "a component runs while its group is not led");
		}
		finally {
			components.destroy();
		}
	}

	private static LeaderComponents components(SteppedLeadership leadership) {
		return new LeaderComponents(() -> leadership, Duration.ofSeconds(10));
	}

	/**
	 * The election's thread: the term ends, then the listeners are told.
	 */
	private static void revoke(SteppedLeadership leadership, LeaderComponents components, String group) {
		leadership.revoke(group);
		components.revoked(group, EPOCH, "the connection was suspended");
	}

	/**
	 * Wait until the group's thread has run every task handed to it so far.
	 */
	static void drain(LeaderComponents components, String group) {
		Future<?> done = components.groupThread(group).submit(() -> {
		});
		if (done == null) {
			throw new AssertionError("the thread of group '" + group + "' is closed");
		}
		RaceThreads.await(done);
	}

	/**
	 * A lifecycle call from outside zklock (the context's), through the component's interceptor.
	 */
	private static void lifecycle(LeaderComponentInterceptor interceptor, Component component, Method method) {
		try {
			interceptor.invoke(new LifecycleCall(component, method));
		}
		catch (Throwable ex) {
			throw new AssertionError(ex);
		}
	}

	private static Method method(String name) {
		try {
			return SmartLifecycle.class.getMethod(name);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A leader-only component that says whether it runs; its stop can wait until another
	 * component has stopped.
	 */
	private static final class Component implements SmartLifecycle {

		private final @Nullable Component stopAfter;

		private volatile boolean running;

		Component(@Nullable Component stopAfter) {
			this.stopAfter = stopAfter;
		}

		@Override
		public synchronized void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			Component other = this.stopAfter;
			if (other != null) {
				synchronized (other) {
					while (other.running) {
						try {
							other.wait();
						}
						catch (InterruptedException ex) {
							throw new AssertionError(ex);
						}
					}
				}
			}
			synchronized (this) {
				this.running = false;
				notifyAll();
			}
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

	}

	private record LifecycleCall(Component component, Method method) implements MethodInvocation {

		@Override
		public Method getMethod() {
			return this.method;
		}

		@Override
		public Object[] getArguments() {
			return new Object[0];
		}

		@Override
		public @Nullable Object proceed() throws Throwable {
			return this.method.invoke(this.component);
		}

		@Override
		public Object getThis() {
			return this.component;
		}

		@Override
		public java.lang.reflect.AccessibleObject getStaticPart() {
			return this.method;
		}

	}

}
