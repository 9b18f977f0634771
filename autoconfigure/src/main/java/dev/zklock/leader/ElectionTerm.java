package dev.zklock.leader;

import dev.zklock.LeaderTerm;
import dev.zklock.LeadershipLostException;

/**
 * A term of this instance's leadership of a group in an election: valid while the election
 * says this instance leads with the same epoch, read from local state only, so that checking a
 * term never waits for ZooKeeper (except to confirm the leadership after a process pause).
 */
final class ElectionTerm implements LeaderTerm {

	private final String group;

	private final long epoch;

	private final GroupElection election;

	ElectionTerm(String group, long epoch, GroupElection election) {
		this.group = group;
		this.epoch = epoch;
		this.election = election;
	}

	@Override
	public String group() {
		return this.group;
	}

	@Override
	public long epoch() {
		return this.epoch;
	}

	@Override
	public boolean isValid() {
		return this.election.leadsIn(this.epoch);
	}

	@Override
	public void ensureValid() {
		if (!isValid()) {
			throw new LeadershipLostException(this.group, this.epoch, "");
		}
	}

	@Override
	public String toString() {
		return "LeaderTerm[group=" + this.group + ", epoch=" + this.epoch + "]";
	}

}
