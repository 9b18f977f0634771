package dev.zklock.systemtest.fault;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.Operation;

/**
 * How long a fault stopped the work on a lock key: the longest time, from the fault's start to
 * {@value #AFTER_HEAL_MILLIS} ms after it was healed, between the end of one ok locked operation
 * on the key (or the fault's start) and the start of the next (or the end of that window), by
 * any process.
 */
final class LockStalls {

	/**
	 * How long after a fault was healed its stall may last.
	 */
	static final long AFTER_HEAL_MILLIS = 10_000;

	private LockStalls() {
	}

	/**
	 * Return the stalls on a key, in milliseconds, by kind of fault.
	 * @param history the run's history
	 * @param key the lock key
	 * @param faults the faults
	 * @return the stalls, by the fault's label
	 */
	static Map<String, List<Long>> byFault(History history, String key, List<Fault> faults) {
		List<Operation> ok = history.operations()
			.stream()
			.filter((operation) -> operation.isOk() && operation.kind().isLocked() && operation.key().equals(key))
			.sorted(Comparator.comparingLong(Operation::start))
			.toList();
		Map<String, List<Long>> stalls = new TreeMap<>();
		for (Fault fault : faults) {
			stalls.computeIfAbsent(fault.nemesis().label(), (label) -> new ArrayList<>())
				.add(longestGap(ok, fault.start(), fault.end() + AFTER_HEAL_MILLIS));
		}
		return stalls;
	}

	private static long longestGap(List<Operation> ok, long from, long to) {
		long longest = 0;
		long lastEnd = from;
		for (Operation operation : ok) {
			if (operation.end() < from) {
				continue;
			}
			if (operation.start() > to) {
				break;
			}
			longest = Math.max(longest, operation.start() - lastEnd);
			lastEnd = Math.max(lastEnd, operation.end());
		}
		return Math.max(longest, to - lastEnd);
	}

}
