package dev.zklock;

/**
 * A {@link LeaderTerm} valid while the leadership says this instance leads the group with the
 * same epoch.
 */
final class LeadershipTerm implements LeaderTerm {

	private final ZkLeadership leadership;

	private final String group;

	private final long epoch;

	LeadershipTerm(ZkLeadership leadership, String group, long epoch) {
		this.leadership = leadership;
		this.group = group;
		this.epoch = epoch;
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
		return this.leadership.isLeader(this.group) && this.leadership.epoch(this.group).orElse(-1) == this.epoch;
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
