package dev.zklock.leader;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.zklock.ZkLeadership;

/**
 * A {@link ZkLeadership} whose outcome is fixed by a {@link LeaderTestMode} ({@code ALWAYS} or
 * {@code NEVER}), with no ZooKeeper behind it: for tests of leader-only code. Under
 * {@code ALWAYS} this instance is the only participant and leads every group; its epoch starts
 * at 1 and grows with every {@link #yieldLeadership(String) yield}, which starts a new term as
 * with a lone participant. Under {@code NEVER} it leads no group and knows no leader.
 *
 * @since 0.1.0
 */
public final class FixedLeadership implements ZkLeadership {

	private final String participantId;

	private final boolean leads;

	private final Set<String> groups = ConcurrentHashMap.newKeySet();

	private final AtomicLong term = new AtomicLong(1);

	/**
	 * Create a fixed leadership.
	 * @param mode {@link LeaderTestMode#ALWAYS} or {@link LeaderTestMode#NEVER}
	 * @param participantId the id of this instance
	 * @param methods the leader-only methods, whose groups are joined as they are found
	 * @param groups further groups to join
	 */
	public FixedLeadership(LeaderTestMode mode, String participantId, LeaderMethods methods, List<String> groups) {
		if (mode == LeaderTestMode.ELECTION) {
			throw new IllegalArgumentException("A fixed leadership needs test mode ALWAYS or NEVER, not " + mode);
		}
		this.participantId = participantId;
		this.leads = (mode == LeaderTestMode.ALWAYS);
		groups.forEach((group) -> this.groups.add(GroupNames.validate(group)));
		methods.onGroup(this.groups::add);
	}

	@Override
	public String participantId() {
		return this.participantId;
	}

	@Override
	public Set<String> groups() {
		return Set.copyOf(this.groups);
	}

	@Override
	public boolean isLeader(String group) {
		return this.leads;
	}

	@Override
	public Optional<String> currentLeader(String group) {
		return this.leads ? Optional.of(this.participantId) : Optional.empty();
	}

	@Override
	public List<String> participants(String group) {
		return List.of(this.participantId);
	}

	@Override
	public OptionalLong epoch(String group) {
		return this.leads ? OptionalLong.of(this.term.get()) : OptionalLong.empty();
	}

	@Override
	public boolean yieldLeadership(String group) {
		if (this.leads) {
			this.term.incrementAndGet();
		}
		return this.leads;
	}

	String notLeaderReason() {
		return "zklock.leader.test-mode is NEVER";
	}

}
