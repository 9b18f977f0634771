package dev.zklock.benchmarks.spring;

import dev.zklock.annotation.ZkLeader;

/**
 * A bean with a {@code @ZkLeader} method of the group named by the
 * {@value #GROUP_PROPERTY} property, the way an application declares one.
 */
public class LeaderWork {

	/** The property naming the group. */
	public static final String GROUP_PROPERTY = "zklock-benchmarks.group";

	/**
	 * Run the work if this instance leads the group; skip it otherwise.
	 * @param work the work
	 */
	@ZkLeader("${" + GROUP_PROPERTY + "}")
	public void run(Runnable work) {
		work.run();
	}

}
