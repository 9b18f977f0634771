package dev.zklock.annotation;

/**
 * What a {@link ZkLocked} call does when the lock is not obtained within its wait time.
 *
 * @since 0.1.0
 */
public enum OnLockTimeout {

	/**
	 * Throw {@link dev.zklock.LockTimeoutException}.
	 */
	THROW,

	/**
	 * Do not call the method: a {@code void} method returns, an {@code Optional} method returns
	 * {@code Optional.empty()}, any other returns {@code null}.
	 */
	SKIP

}
