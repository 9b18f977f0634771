package dev.zklock.leader;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.aopalliance.intercept.MethodInvocation;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The threads of the real {@link LeaderComponents} (its {@link LeaderComponentGroup groups}, each
 * on its {@link ComponentThread}) around a revocation, explored by Lincheck's model checker: the
 * election's thread (a {@link SteppedLeadership} whose term ends, then the listener's
 * {@code revoked}), the application's thread (ready, or the context's {@code stop()} and
 * {@code start()} through {@link LeaderComponentInterceptor}) and the groups' component threads
 * run in the interleavings the scheduler chooses. After all of them, a component runs only while
 * its group is led, and one group's slow stop does not hold up another group's.
 */
@Disabled("On this build's machines Lincheck reports a hang within a run's 30 s of wall-clock time (the races of "
		+ "two groups even on the unbroken code), and the breaks of the single-group races ended the same way rather "
		+ "than in a reported interleaving: see docs/RELIABILITY.md")
@Timeout(600)
class LeaderComponentRaceTests {

	private static final int INVOCATIONS = 30;

	private static final String GROUP = "jobs";

	private static final String OTHER_GROUP = "reports";

	private static final long EPOCH = 3;

	private static final ApplicationReadyEvent READY = new ApplicationReadyEvent(new SpringApplication(),
			new String[0], null, Duration.ZERO);

	private static final Method START = method("start");

	private static final Method STOP = method("stop");

	/**
	 * Have the checker instrument the classes the races meet, a few at a time, before the races
	 * run: it instruments a class the first time a run meets it, and gives each run 30 s of
	 * wall-clock time before it reports a hang and stops the run's threads, which on a loaded
	 * machine the first run of a whole race can exceed. These runs are not judged.
	 */
	@BeforeAll
	static void instrumentTheClasses() {
		List<Runnable> steps = List.of(() -> new ScheduledThreadPoolExecutor(1).shutdownNow(),
				() -> new CustomizableThreadFactory("warm-up-"), () -> new FutureTask<>(() -> {
				}, null).run(), () -> components(new SteppedLeadership()).register(GROUP, "job", new Component(null)),
				LeaderComponentRaceTests::readyAgainstRevocation,
				LeaderComponentRaceTests::contextStopAndStartAgainstRevocation,
				LeaderComponentRaceTests::slowStopAgainstAnotherGroupsRevocation);
		for (Runnable step : steps) {
			try {
				Lincheck.runConcurrentTest(1, step);
			}
			catch (LincheckAssertionError ex) {
				// Judged by the tests.
			}
		}
	}

	@Test
	void componentStartedAsTheApplicationIsReadyIsNotLeftRunningByARevocation() {
		Lincheck.runConcurrentTest(INVOCATIONS, LeaderComponentRaceTests::readyAgainstRevocation);
	}

	@Test
	void contextStoppedAndStartedAgainstARevocationLeavesTheComponentStopped() {
		Lincheck.runConcurrentTest(INVOCATIONS, LeaderComponentRaceTests::contextStopAndStartAgainstRevocation);
	}

	@Test
	void slowStopOfOneGroupDoesNotHoldUpAnotherGroupsStop() {
		Lincheck.runConcurrentTest(INVOCATIONS, LeaderComponentRaceTests::slowStopAgainstAnotherGroupsRevocation);
	}

	/**
	 * The application gets ready (the group's start is handed to its component thread) while
	 * the election's thread revokes the group.
	 */
	private static void readyAgainstRevocation() {
		SteppedLeadership leadership = new SteppedLeadership();
		leadership.grant(GROUP, EPOCH);
		Component job = new Component(null);
		LeaderComponents components = components(leadership);
		components.register(GROUP, "job", job);
		SteppedComponentThreads threads = new SteppedComponentThreads(components, GROUP);
		threads.start();
		Thread revoking = RaceThreads.start(() -> revoke(leadership, components, GROUP));
		components.onApplicationEvent(READY);
		RaceThreads.join(revoking);
		threads.join();
		RaceThreads.check(!job.running, "the component runs while its group is not led");
	}

	/**
	 * The group's component runs; the context's {@code stop()} and {@code start()} go through
	 * the component's interceptor while the election's thread revokes the group.
	 */
	private static void contextStopAndStartAgainstRevocation() {
		SteppedLeadership leadership = new SteppedLeadership();
		leadership.grant(GROUP, EPOCH);
		Component job = new Component(null);
		LeaderComponents components = components(leadership);
		components.register(GROUP, "job", job);
		SteppedComponentThreads threads = new SteppedComponentThreads(components, GROUP);
		threads.start();
		components.onApplicationEvent(READY);
		threads.join();
		RaceThreads.check(job.running, "the component of a led group did not start");
		threads.start();
		LeaderComponentInterceptor fromOutside = new LeaderComponentInterceptor(components, GROUP);
		Thread revoking = RaceThreads.start(() -> revoke(leadership, components, GROUP));
		lifecycle(fromOutside, job, STOP);
		lifecycle(fromOutside, job, START);
		RaceThreads.join(revoking);
		threads.join();
		RaceThreads.check(!job.running, "the component runs while its group is not led");
	}

	/**
	 * The components of two groups run; one suspension revokes both, the group whose stop
	 * waits for the other group's component to stop first.
	 */
	private static void slowStopAgainstAnotherGroupsRevocation() {
		SteppedLeadership leadership = new SteppedLeadership();
		leadership.grant(GROUP, EPOCH);
		leadership.grant(OTHER_GROUP, EPOCH);
		Component report = new Component(null);
		// The job's stop ends only once the other group's component has stopped.
		Component job = new Component(report);
		LeaderComponents components = components(leadership);
		components.register(GROUP, "job", job);
		components.register(OTHER_GROUP, "report", report);
		SteppedComponentThreads threads = new SteppedComponentThreads(components, GROUP, OTHER_GROUP);
		threads.start();
		components.onApplicationEvent(READY);
		threads.join();
		RaceThreads.check(job.running && report.running, "the components of led groups did not start");
		// One suspension revokes both groups, the slow one first.
		threads.start();
		Thread revoking = RaceThreads.start(() -> {
			revoke(leadership, components, GROUP);
			revoke(leadership, components, OTHER_GROUP);
		});
		RaceThreads.join(revoking);
		threads.join();
		RaceThreads.check(!job.running && !report.running, "a component runs while its group is not led");
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
	 * component has stopped (on the other's monitor, which the checker follows).
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
