package dev.zklock.leader;

import java.time.Duration;

import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;

import dev.zklock.annotation.ZkLeaderComponent;

import org.springframework.context.SmartLifecycle;
import org.springframework.context.support.GenericApplicationContext;

/**
 * The context's own {@code stop()} and {@code start()} (Spring's
 * {@code DefaultLifecycleProcessor}, on the application's thread) against a revocation of the
 * group (the election's thread), explored by Fray's controlled scheduler: a real application
 * context whose leader-only component is proxied by {@link ZkLeaderComponentPostProcessor} and
 * started by {@link LeaderComponents} on its group's own thread, as in production. Once every
 * thread is done, the component runs only if the group is led: the context's {@code start()}
 * never starts it on an instance that does not lead, wherever the revocation lands.
 * <p>
 * Runs in the fray-races execution (the fray profile), on the JDK 25 that Fray instruments.
 */
@ExtendWith(FrayTestExtension.class)
class LeaderComponentContextFrayTests {

	private static final int ITERATIONS = 2000;

	private static final String GROUP = "jobs";

	private static final long EPOCH = 5;

	@ConcurrencyTest(iterations = ITERATIONS)
	void contextStoppedAndStartedAgainstARevocationLeavesTheComponentStopped() {
		SteppedLeadership leadership = new SteppedLeadership();
		leadership.grant(GROUP, EPOCH);
		LeaderComponents components = new LeaderComponents(() -> leadership, Duration.ofSeconds(10));
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			context.getBeanFactory()
				.addBeanPostProcessor(
						new ZkLeaderComponentPostProcessor(new LeaderMethods(GROUP, (group) -> group), components));
			context.registerBean("job", Job.class);
			context.refresh();
			Job job = context.getBean(Job.class);
			RaceThreads.check(!job.isRunning(), "the context started the leader-only component itself");
			components.ready();
			LeaderComponentsFrayTests.drain(components, GROUP);
			RaceThreads.check(job.isRunning(), "the component of a led group did not start");
			Thread revoking = RaceThreads.start(() -> {
				leadership.revoke(GROUP);
				components.revoked(GROUP, EPOCH, "the connection was suspended");
			});
			context.stop();
			context.start();
			RaceThreads.join(revoking);
			LeaderComponentsFrayTests.drain(components, GROUP);
			RaceThreads.check(!job.isRunning(), "the component runs while its group is not led");
		}
		finally {
			components.destroy();
		}
	}

	/**
	 * A leader-only component that says whether it runs.
	 */
	@ZkLeaderComponent(GROUP)
	static class Job implements SmartLifecycle {

		private volatile boolean running;

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

	}

}
