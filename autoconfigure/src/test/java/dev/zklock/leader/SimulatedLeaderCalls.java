package dev.zklock.leader;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import dev.zklock.LeaderTerm;
import dev.zklock.ZkLeadership;
import dev.zklock.annotation.ZkLeader;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.DefaultPointcutAdvisor;

/**
 * One instance's {@code @ZkLeader} methods, called as an application calls them: through a
 * Spring AOP proxy with the real advisor ({@link LeaderMethodPointcut},
 * {@link ZkLeaderInterceptor}, {@link LeaderAdvice}, {@link LeaderCalls}), over the leadership
 * of {@link SimulatedParticipant}s: the way the deterministic simulator of the tests makes
 * blocking leader-only calls from its own package, on its simulated threads.
 * <p>
 * A call asks for the group's term as {@code LeaderElections.term} does (the participant's own,
 * which waits for the server's confirmation after a pause), and its revocations reach the
 * running calls as {@code LeaderElections} hands them to its listeners ({@link #revoked}).
 */
public final class SimulatedLeaderCalls {

	private final LeaderCalls calls = new LeaderCalls();

	private final Jobs jobs;

	/**
	 * Create the calls of an instance.
	 * @param participantId the instance's participant id
	 * @param participants the participant of each group the instance takes part in
	 * @param work what a call does once its term let it through
	 */
	public SimulatedLeaderCalls(String participantId, Map<String, SimulatedParticipant> participants, Work work) {
		LeaderMethods methods = new LeaderMethods("g0", (group) -> group);
		Leadership leadership = new Leadership(participantId, new HashMap<>(participants));
		LeaderAdvice advice = new LeaderAdvice(methods, () -> leadership, this.calls);
		// A JDK proxy of the interface: its class is made once, where a class-based proxy would
		// make a class for every instance's advisor.
		ProxyFactory proxies = new ProxyFactory(new AnnotatedJobs(work));
		proxies.setInterfaces(Jobs.class);
		proxies.addAdvisor(new DefaultPointcutAdvisor(new LeaderMethodPointcut(methods), new ZkLeaderInterceptor(advice)));
		this.jobs = (Jobs) proxies.getProxy(SimulatedLeaderCalls.class.getClassLoader());
	}

	/**
	 * Call the leader-only method of a group ({@code g0} to {@code g2}) on the calling thread.
	 * @param interruptOnRevoke whether the method's annotation asks for the interrupt
	 * @return whether the call ran (it is skipped where the instance does not lead)
	 * @throws dev.zklock.LeadershipLostException if the call outlived its term
	 */
	public boolean call(String group, boolean interruptOnRevoke) throws Exception {
		Boolean ran = switch (group + (interruptOnRevoke ? "!" : "")) {
			case "g0" -> this.jobs.g0();
			case "g1" -> this.jobs.g1();
			case "g2" -> this.jobs.g2();
			case "g0!" -> this.jobs.g0Interruptible();
			case "g1!" -> this.jobs.g1Interruptible();
			case "g2!" -> this.jobs.g2Interruptible();
			default -> throw new IllegalArgumentException("No leader-only method for group " + group);
		};
		return Boolean.TRUE.equals(ran);
	}

	/**
	 * Hand a revocation to the running calls, as {@code LeaderElections} hands it to its
	 * listeners.
	 */
	public void revoked(String group, long epoch, String reason) {
		this.calls.revoked(group, epoch, reason);
	}

	/**
	 * What a leader-only call does once it runs.
	 */
	@FunctionalInterface
	public interface Work {

		void run(String group, long epoch) throws Exception;

	}

	/**
	 * The leader-only methods of the application, as its proxy shows them.
	 */
	public interface Jobs {

		@Nullable Boolean g0() throws Exception;

		@Nullable Boolean g1() throws Exception;

		@Nullable Boolean g2() throws Exception;

		@Nullable Boolean g0Interruptible() throws Exception;

		@Nullable Boolean g1Interruptible() throws Exception;

		@Nullable Boolean g2Interruptible() throws Exception;

	}

	/**
	 * The application's leader-only methods, one a group, and one a group that asks to be
	 * interrupted when its term ends. Each returns {@code true}; a skipped call returns
	 * {@code null}.
	 */
	public static class AnnotatedJobs implements Jobs {

		private final Work work;

		AnnotatedJobs(Work work) {
			this.work = work;
		}

		@ZkLeader("g0")
		@Override
		public @Nullable Boolean g0() throws Exception {
			return run("g0");
		}

		@ZkLeader("g1")
		@Override
		public @Nullable Boolean g1() throws Exception {
			return run("g1");
		}

		@ZkLeader("g2")
		@Override
		public @Nullable Boolean g2() throws Exception {
			return run("g2");
		}

		@ZkLeader(group = "g0", interruptOnRevoke = true)
		@Override
		public @Nullable Boolean g0Interruptible() throws Exception {
			return run("g0");
		}

		@ZkLeader(group = "g1", interruptOnRevoke = true)
		@Override
		public @Nullable Boolean g1Interruptible() throws Exception {
			return run("g1");
		}

		@ZkLeader(group = "g2", interruptOnRevoke = true)
		@Override
		public @Nullable Boolean g2Interruptible() throws Exception {
			return run("g2");
		}

		private Boolean run(String group) throws Exception {
			this.work.run(group, dev.zklock.ZkLeaderContext.current().epoch());
			return true;
		}

	}

	/**
	 * The leadership the advice consults: each group's participant, whose term waits for the
	 * server's confirmation after a pause that may have outlasted the session.
	 */
	private record Leadership(String participantId, Map<String, SimulatedParticipant> participants)
			implements ZkLeadership {

		@Override
		public Set<String> groups() {
			return Set.copyOf(this.participants.keySet());
		}

		@Override
		public boolean isLeader(String group) {
			return term(group).isPresent();
		}

		@Override
		public Optional<LeaderTerm> term(String group) {
			return this.participants.get(group).term();
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
			long epoch = this.participants.get(group).epoch();
			return (epoch >= 0) ? OptionalLong.of(epoch) : OptionalLong.empty();
		}

		@Override
		public boolean yieldLeadership(String group) {
			throw new UnsupportedOperationException("Not simulated");
		}

	}

}
