package dev.zklock.systemtest.fault;

import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.HistoryFollower;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;

/**
 * The history of a run as the processes write it, and how far each process has got: the start
 * of its last ok locked operation, and of the last ok leader tick of any process. Thread-safe.
 */
final class RunHistory {

	private final HistoryFollower follower;

	private final Map<String, Long> lastOkLocked = new HashMap<>();

	private long lastOkTick = Long.MIN_VALUE;

	RunHistory(Path folder) {
		this.follower = new HistoryFollower(folder);
	}

	/**
	 * Return every line the processes have completed so far.
	 */
	synchronized History read() {
		poll();
		return this.follower.history();
	}

	/**
	 * Return the processes, among those given, that have completed no ok locked operation
	 * since the given time.
	 */
	synchronized Set<String> withoutProgress(Collection<String> processes, long since) {
		poll();
		Set<String> without = new TreeSet<>();
		for (String process : processes) {
			if (this.lastOkLocked.getOrDefault(process, Long.MIN_VALUE) < since) {
				without.add(process);
			}
		}
		return without;
	}

	/**
	 * Return whether a leader has ticked ok since the given time.
	 */
	synchronized boolean tickedSince(long since) {
		poll();
		return this.lastOkTick >= since;
	}

	private void poll() {
		for (Operation operation : this.follower.poll()) {
			if (operation.isOk() && operation.kind().isLocked()) {
				this.lastOkLocked.merge(operation.process(), operation.start(), Math::max);
			}
			else if (operation.isOk() && operation.kind() == OpKind.LEADER_TICK) {
				this.lastOkTick = Math.max(this.lastOkTick, operation.start());
			}
		}
	}

}
