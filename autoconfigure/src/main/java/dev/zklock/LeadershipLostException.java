package dev.zklock;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a term of leadership ended while leader-only code was running in it: by
 * {@link LeaderTerm#ensureValid()}, and at the return of a {@code @ZkLeader} call that outlived
 * its term.
 *
 * @since 0.2.0
 */
public class LeadershipLostException extends NotLeaderException {

	private final long epoch;

	public LeadershipLostException(String group, long epoch, String detail) {
		this(group, epoch, detail, null);
	}

	public LeadershipLostException(String group, long epoch, String detail, @Nullable Throwable cause) {
		super(group, "its term of epoch " + epoch + " ended" + (detail.isEmpty() ? "" : " " + detail), cause);
		this.epoch = epoch;
	}

	/**
	 * Return the epoch of the term that ended.
	 * @return the epoch
	 */
	public long getEpoch() {
		return this.epoch;
	}

}
