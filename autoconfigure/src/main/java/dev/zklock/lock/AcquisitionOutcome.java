package dev.zklock.lock;

/**
 * How a call's wait for its locks ended.
 *
 * @since 0.1.0
 */
public enum AcquisitionOutcome {

	/**
	 * Every lock was obtained and the call ran.
	 */
	ACQUIRED,

	/**
	 * The wait time passed and the call failed, with a {@link dev.zklock.LockTimeoutException}
	 * or whatever its timeout handler threw.
	 */
	TIMEOUT,

	/**
	 * The wait time passed and the call was skipped: its timeout handler returned a result
	 * ({@code OnLockTimeout.SKIP}, {@code tryExecute}).
	 */
	SKIPPED,

	/**
	 * The wait ended with an error: ZooKeeper unreachable or failing, an interrupt, or an
	 * impossible request such as a shared-to-exclusive upgrade.
	 */
	ERROR

}
