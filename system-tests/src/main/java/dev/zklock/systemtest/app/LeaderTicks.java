package dev.zklock.systemtest.app;

import java.util.OptionalLong;

import dev.zklock.ZkLeadership;
import dev.zklock.ZkLockException;
import dev.zklock.annotation.ZkLeader;
import dev.zklock.systemtest.history.HistoryWriter;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;

import org.springframework.scheduling.annotation.Scheduled;

/**
 * The leader-only job of the workload: every 50 milliseconds the leader of group
 * {@value #GROUP} logs a tick with its term's epoch.
 */
public class LeaderTicks {

	static final String GROUP = "ticks";

	private final ZkLeadership leadership;

	private final HistoryWriter history;

	private final String process;

	LeaderTicks(ZkLeadership leadership, HistoryWriter history, String process) {
		this.leadership = leadership;
		this.history = history;
		this.process = process;
	}

	/**
	 * Log a tick under the current epoch; a tick whose leadership ended while it ran is logged
	 * as {@code lock-lost}, without an epoch.
	 */
	@ZkLeader(GROUP)
	@Scheduled(fixedDelay = 50)
	public void tick() {
		long start = System.currentTimeMillis();
		// Off the leader, epoch() reads the current leader's epoch from ZooKeeper: a tick counts
		// only if this instance still leads, under the same epoch, once it has read it.
		OptionalLong epoch;
		boolean led;
		try {
			epoch = this.leadership.epoch(GROUP);
			led = epoch.isPresent() && this.leadership.isLeader(GROUP) && this.leadership.epoch(GROUP).equals(epoch);
		}
		catch (ZkLockException ex) {
			epoch = OptionalLong.empty();
			led = false;
		}
		long end = System.currentTimeMillis();
		Operation tick = led
				? Operation.of(this.process, OpKind.LEADER_TICK, GROUP, start, end, epoch.getAsLong(), Outcome.OK)
				: Operation.of(this.process, OpKind.LEADER_TICK, GROUP, start, end, null, Outcome.LOCK_LOST)
					.withDetail("the leadership ended during the tick");
		this.history.append(tick);
	}

}
