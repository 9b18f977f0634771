package dev.zklock.leader;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

import dev.zklock.LeaderTerm;
import dev.zklock.LeadershipLostException;
import dev.zklock.ZkLeadership;

import org.springframework.context.SmartLifecycle;

/**
 * One instance's leader-only components, the real {@link LeaderComponents} (and the
 * {@link LeaderComponentGroup} and {@link ComponentThread} of each group) on the simulator's
 * threads and clock, told of the leadership of {@link SimulatedParticipant}s: the way the
 * deterministic simulator of the tests drives them from its own package, without a Spring
 * context.
 * <p>
 * Yielding mirrors {@code LeaderElections.yieldLeadership}: the components are stopped, and
 * waited for, before the participant steps down. A yield asked for on the group's own thread,
 * after a component failed to start, mirrors {@code LeaderElections.yieldStopped}: the
 * participant steps down at once, the components having been stopped there already.
 */
public final class SimulatedComponents {

	private final String participantId;

	private final LeaderComponents components;

	private final Map<String, SimulatedParticipant> participants = new HashMap<>();

	private final StepDowns stepDowns;

	private final Threads threads;

	/**
	 * Create the components of an instance.
	 * @param threads the simulated thread of each group
	 * @param nanoTime the simulated clock
	 * @param stepDowns told of each yield, as the participant steps down
	 */
	public SimulatedComponents(String participantId, Duration stopTimeout, Threads threads, LongSupplier nanoTime,
			StepDowns stepDowns) {
		this.participantId = participantId;
		this.stepDowns = stepDowns;
		this.threads = threads;
		this.components = new LeaderComponents(Leadership::new, stopTimeout, (group) -> {
			Worker worker = threads.forGroup(group);
			return new ComponentExecutor() {

				@Override
				public Future<?> submit(Runnable task) {
					return worker.submit(task);
				}

				@Override
				public void schedule(Runnable task, long delayMillis) {
					worker.schedule(task, delayMillis);
				}

				@Override
				public void close() {
					worker.close();
				}

			};
		}, nanoTime);
	}

	/**
	 * Take part in a group with a participant, whose grants and revocations must be handed to
	 * {@link #granted} and {@link #revoked}.
	 */
	public void join(String group, SimulatedParticipant participant) {
		this.participants.put(group, participant);
	}

	/**
	 * Add a leader-only component of a group, as the post-processor does for a bean.
	 */
	public void register(String group, String name, SmartLifecycle component) {
		this.components.register(group, name, component);
	}

	/**
	 * The application is ready: the components of the groups it leads start.
	 */
	public void ready() {
		this.components.ready();
	}

	public void granted(String group, long epoch) {
		this.components.granted(group, epoch);
	}

	public void revoked(String group, long epoch, String reason) {
		this.components.revoked(group, epoch, reason);
	}

	/**
	 * Step down in a group after its components stopped, as
	 * {@code LeaderElections.yieldLeadership} does (which asks the server whether it leads
	 * after a pause; here the participant's own state decides).
	 * @return whether it stepped down
	 */
	public boolean yieldLeadership(String group) {
		SimulatedParticipant participant = this.participants.get(group);
		if (participant.epoch() >= 0) {
			this.components.stopBeforeYield(group);
		}
		return stepDown(group, participant, "yields");
	}

	private boolean stepDown(String group, SimulatedParticipant participant, String why) {
		boolean yielded = participant.yieldLeadership();
		if (yielded) {
			this.stepDowns.steppedDown(group, why);
		}
		return yielded;
	}

	/**
	 * The context's {@code stop()} stops a group's components, and waits for them.
	 */
	public void requestStop(String group) {
		this.components.requestStop(group);
	}

	/**
	 * The context's {@code start()} starts a group's components, if this instance leads it.
	 */
	public void requestStart(String group) {
		this.components.requestStart(group);
	}

	/**
	 * The context closes: every group's components stop, for good, and are waited for.
	 */
	public void close() {
		this.components.closing();
	}

	/**
	 * Told of each yield of this instance's participants, at the moment the participant steps
	 * down (gives up its node).
	 */
	@FunctionalInterface
	public interface StepDowns {

		void steppedDown(String group, String why);

	}

	/**
	 * The simulated threads of the groups.
	 */
	@FunctionalInterface
	public interface Threads {

		Worker forGroup(String group);

	}

	/**
	 * A simulated thread: it runs the tasks one at a time, in the order they were handed over.
	 */
	public interface Worker {

		/**
		 * Run the task after those handed over before.
		 * @return a future done when it has run; waiting for it lets the simulated world go on
		 */
		Future<?> submit(Runnable task);

		void schedule(Runnable task, long delayMillis);

		/**
		 * Run an action, within the task that runs, once the time its calls so far have taken
		 * has passed: the code that follows them.
		 */
		void afterCurrentWork(Runnable action);

		void close();

	}

	/**
	 * The leadership that {@link LeaderComponents} consults: the participants' own state. A
	 * term after a pause that may have outlasted the session needs the server's confirmation:
	 * production waits for it on the component thread; here the look returns no term, and the
	 * start is handed to the thread again once the server confirmed.
	 */
	private final class Leadership implements ZkLeadership {

		@Override
		public String participantId() {
			return SimulatedComponents.this.participantId;
		}

		@Override
		public Set<String> groups() {
			return Set.copyOf(SimulatedComponents.this.participants.keySet());
		}

		@Override
		public boolean isLeader(String group) {
			return participant(group).leadsWithoutAsking();
		}

		@Override
		public Optional<LeaderTerm> term(String group) {
			SimulatedParticipant participant = participant(group);
			CompletableFuture<Boolean> leads = participant.leads();
			if (!leads.isDone()) {
				leads.thenAccept((confirmed) -> {
					if (confirmed) {
						SimulatedComponents.this.components.requestStart(group);
					}
				});
				return Optional.empty();
			}
			long epoch = participant.epoch();
			return (leads.join() && epoch >= 0) ? Optional.of(new Term(group, epoch, participant)) : Optional.empty();
		}

		@Override
		public Optional<String> currentLeader(String group) {
			throw new UnsupportedOperationException("Not simulated");
		}

		@Override
		public List<String> participants(String group) {
			throw new UnsupportedOperationException("Not simulated");
		}

		@Override
		public OptionalLong epoch(String group) {
			long epoch = participant(group).epoch();
			return (epoch >= 0) ? OptionalLong.of(epoch) : OptionalLong.empty();
		}

		@Override
		public boolean yieldLeadership(String group) {
			if (SimulatedComponents.this.components.startsAndStops(group)) {
				// A component failed to start, on the group's thread: the components were stopped
				// there, and the participant steps down once their stops have returned, as
				// LeaderElections.yieldStopped does.
				SimulatedComponents.this.threads.forGroup(group)
					.afterCurrentWork(() -> stepDown(group, participant(group), "yields after a component failed to start"));
				return true;
			}
			return SimulatedComponents.this.yieldLeadership(group);
		}

		private SimulatedParticipant participant(String group) {
			return SimulatedComponents.this.participants.get(group);
		}

	}

	private record Term(String group, long epoch, SimulatedParticipant participant) implements LeaderTerm {

		@Override
		public boolean isValid() {
			return this.participant.leadsWithoutAsking() && this.participant.epoch() == this.epoch;
		}

		@Override
		public void ensureValid() {
			if (!isValid()) {
				throw new LeadershipLostException(this.group, this.epoch, "");
			}
		}

	}

}
