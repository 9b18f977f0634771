package dev.zklock.systemtest.check;

import org.jspecify.annotations.Nullable;

/**
 * A change of leader: the time between the last tick of one term and the first tick of the next.
 *
 * @param group the leader group
 * @param fromProcess the old leader
 * @param fromEpoch the old term's epoch
 * @param toProcess the new leader
 * @param toEpoch the new term's epoch
 * @param lastTickEnd when the old leader's last ok tick ended
 * @param revokedAt when the old leader logged its revocation, or {@code null} if it never did
 * (killed)
 * @param firstTickStart when the new leader's first ok tick started
 */
public record Failover(String group, String fromProcess, long fromEpoch, String toProcess, long toEpoch,
		long lastTickEnd, @Nullable Long revokedAt, long firstTickStart) {

	/**
	 * Return the time without a leader ticking; negative when the terms' ticks interleave.
	 * @return milliseconds from the old leader's last tick to the new leader's first
	 */
	public long gapMillis() {
		return this.firstTickStart - this.lastTickEnd;
	}

	@Override
	public String toString() {
		return this.group + " " + this.fromProcess + "#" + this.fromEpoch + " -> " + this.toProcess + "#"
				+ this.toEpoch + ": " + gapMillis() + " ms" + ((this.revokedAt != null) ? " (revoked)" : "");
	}

}
