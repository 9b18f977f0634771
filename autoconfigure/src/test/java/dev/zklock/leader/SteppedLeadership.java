package dev.zklock.leader;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.zklock.ZkLeadership;

/**
 * A {@link ZkLeadership} whose terms a test grants and revokes by hand: it states only which
 * groups this instance leads and in which epoch, as the elections' listeners are told. No model
 * of an election: for {@link LeaderComponentsFrayTests}, which explores the threads of
 * {@link LeaderComponents} around a revocation.
 */
final class SteppedLeadership implements ZkLeadership {

	private final Map<String, Long> epochs = new ConcurrentHashMap<>();

	void grant(String group, long epoch) {
		this.epochs.put(group, epoch);
	}

	void revoke(String group) {
		this.epochs.remove(group);
	}

	@Override
	public String participantId() {
		return "a";
	}

	@Override
	public Set<String> groups() {
		return Set.copyOf(this.epochs.keySet());
	}

	@Override
	public boolean isLeader(String group) {
		return this.epochs.containsKey(group);
	}

	@Override
	public Optional<String> currentLeader(String group) {
		return isLeader(group) ? Optional.of(participantId()) : Optional.empty();
	}

	@Override
	public List<String> participants(String group) {
		return List.of(participantId());
	}

	@Override
	public OptionalLong epoch(String group) {
		Long epoch = this.epochs.get(group);
		return (epoch != null) ? OptionalLong.of(epoch) : OptionalLong.empty();
	}

	@Override
	public boolean yieldLeadership(String group) {
		return this.epochs.remove(group) != null;
	}

}
