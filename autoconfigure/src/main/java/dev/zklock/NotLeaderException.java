package dev.zklock;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a leader-only call is made on an instance that is not the leader of the call's
 * group.
 *
 * @since 0.1.0
 */
public class NotLeaderException extends ZkLockException {

	private final String group;

	public NotLeaderException(String group, String detail) {
		this(group, detail, null);
	}

	protected NotLeaderException(String group, String detail, @Nullable Throwable cause) {
		super("This instance is not the leader of group '" + group + "'" + (detail.isEmpty() ? "" : ": " + detail),
				cause);
		this.group = group;
	}

	/**
	 * Return the leadership group.
	 * @return the group
	 */
	public String getGroup() {
		return this.group;
	}

}
