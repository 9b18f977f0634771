package dev.zklock.woven;

import java.util.Queue;

import dev.zklock.annotation.ZkLeader;

/**
 * A bean whose leader-only method is called from inside the bean, as a scheduler's tick
 * method would.
 */
public class Reports {

	public static final String GROUP = "reports";

	private final String instance;

	private final Queue<String> ran;

	public Reports(String instance, Queue<String> ran) {
		this.instance = instance;
		this.ran = ran;
	}

	/**
	 * Run the report, on the leader only.
	 */
	public void tick() {
		report();
	}

	/**
	 * Run the private report, on the leader only.
	 */
	public void tickPrivately() {
		reportPrivately();
	}

	@ZkLeader(group = GROUP)
	public void report() {
		this.ran.add(this.instance);
	}

	@ZkLeader(group = GROUP)
	private void reportPrivately() {
		this.ran.add(this.instance + " (private)");
	}

}
