package dev.zklock.annotation;

/**
 * What a call to a {@link ZkLeader @ZkLeader} method does on an instance that is not the leader
 * of the method's group.
 *
 * @since 0.1.0
 */
public enum WhenNotLeader {

	/**
	 * The method is not called: a {@code void} method returns, an {@code Optional} method
	 * returns {@code Optional.empty()}, any other method returns {@code null}.
	 */
	SKIP,

	/**
	 * The method is not called and the call ends with a {@link dev.zklock.NotLeaderException}.
	 */
	THROW

}
