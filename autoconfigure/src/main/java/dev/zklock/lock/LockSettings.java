package dev.zklock.lock;

import java.time.Duration;

/**
 * How an instance shares its lock nodes among its own calls, and how it names them.
 *
 * @param handoff whether calls of this instance pass a held lock to each other without going
 * through ZooKeeper; {@code false} gives every call a lock node of its own
 * @param handoffMaxGrants how many more local grants the instance may make on a key once another
 * instance waits for it
 * @param handoffMaxTime how long the instance may go on granting a key locally once another
 * instance waits for it
 * @param keepIdleTime how long the instance keeps a lock node after its last local call released
 * it, while no other instance asks for the key; zero to release at once
 * @param keepMaxKeys how many idle keys the instance keeps at most
 * @param nodeNames how the instance names the lock nodes it creates
 */
public record LockSettings(boolean handoff, int handoffMaxGrants, Duration handoffMaxTime, Duration keepIdleTime,
		int keepMaxKeys, LockNodeNames nodeNames) {

	/**
	 * One lock node per call, as the first version did: no handoff, nothing kept.
	 */
	public static final LockSettings PER_CALL = new LockSettings(false, 0, Duration.ZERO, Duration.ZERO, 0);

	/**
	 * The defaults of the {@code zklock.lock.handoff.*} and {@code zklock.lock.keep.*}
	 * properties: local handoff on, kept locks off (a kept lock looks held to another
	 * instance's call that will not wait, so keeping is for keys one instance uses again and
	 * again).
	 */
	public static final LockSettings DEFAULTS = new LockSettings(true, 32, Duration.ofMillis(100), Duration.ZERO,
			1000);

	/**
	 * Create settings whose nodes are named as Curator's {@code InterProcessReadWriteLock}
	 * names its children ({@link LockNodeNames#READ_WRITE_LOCK}).
	 * @param handoff whether calls of this instance pass a held lock to each other
	 * @param handoffMaxGrants how many more local grants once another instance waits
	 * @param handoffMaxTime how long local granting may go on once another instance waits
	 * @param keepIdleTime how long an idle lock node is kept; zero to release at once
	 * @param keepMaxKeys how many idle keys are kept at most
	 */
	public LockSettings(boolean handoff, int handoffMaxGrants, Duration handoffMaxTime, Duration keepIdleTime,
			int keepMaxKeys) {
		this(handoff, handoffMaxGrants, handoffMaxTime, keepIdleTime, keepMaxKeys, LockNodeNames.READ_WRITE_LOCK);
	}

	/**
	 * Return these settings with nodes named another way.
	 * @param nodeNames how the instance names its lock nodes
	 * @return the settings
	 */
	public LockSettings withNodeNames(LockNodeNames nodeNames) {
		return new LockSettings(this.handoff, this.handoffMaxGrants, this.handoffMaxTime, this.keepIdleTime,
				this.keepMaxKeys, nodeNames);
	}

	/**
	 * Return whether idle lock nodes are kept.
	 * @return whether keeping is on
	 */
	public boolean keeps() {
		return this.handoff && this.keepMaxKeys > 0 && this.keepIdleTime.toNanos() > 0;
	}

}
