package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.zklock.systemtest.history.History;
import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import org.jspecify.annotations.Nullable;

/**
 * One term of leadership as a history shows it: a process and an epoch in a leader group, with
 * the times the process learnt of its grant and revocation, and its ok ticks.
 * <p>
 * A leader whose connection is suspended is revoked, and granted again with the same epoch if
 * it reconnects with the same session: its node never went, so no one else can have led in
 * between. Such a term has several grants and revocations; it ends with its last revocation,
 * provided no grant was logged after it. Since events are logged when received, after the
 * change, a tick between a revocation and the next grant cannot be told from a tick of the
 * renewed term; but the renewal needs the connection back, so a tick that starts after a
 * revocation and ends before the process logged its reconnection is checked.
 *
 * @param group the leader group
 * @param process the leader
 * @param epoch the term's epoch
 * @param grantedAt when the process logged the grant, if it did
 * @param revokedAt when the process logged the revocation that ended the term, if it did
 * @param ticks the term's ok ticks, by start
 * @param grants when the process logged each of the term's grants, in order
 * @param revocations when the process logged each of the term's revocations, in order
 */
record LeaderTerm(String group, String process, long epoch, @Nullable Long grantedAt, @Nullable Long revokedAt,
		List<Operation> ticks, List<Long> grants, List<Long> revocations) {

	/**
	 * Group the leadership events and ticks of one leader group into terms; operations without an
	 * epoch belong to no term.
	 * @param operations the leadership operations of one group
	 * @return the terms, by start
	 */
	static List<LeaderTerm> of(List<Operation> operations) {
		Map<String, List<Operation>> byTerm = new LinkedHashMap<>();
		for (Operation operation : operations) {
			if (operation.token() != null) {
				byTerm.computeIfAbsent(operation.process() + "#" + operation.token(), (term) -> new ArrayList<>())
					.add(operation);
			}
		}
		return byTerm.values().stream().map(LeaderTerm::term).sorted(Comparator.comparingLong(LeaderTerm::start)).toList();
	}

	private static LeaderTerm term(List<Operation> operations) {
		Operation first = operations.get(0);
		return new LeaderTerm(first.key(), first.process(), Objects.requireNonNull(first.token()),
				earliest(operations, OpKind.LEADER_GRANTED), finalRevocation(operations),
				operations.stream()
					.filter((operation) -> operation.kind() == OpKind.LEADER_TICK && operation.isOk())
					.sorted(History.ORDER)
					.toList(),
				times(operations, OpKind.LEADER_GRANTED), times(operations, OpKind.LEADER_REVOKED));
	}

	private static List<Long> times(List<Operation> operations, OpKind kind) {
		return operations.stream().filter((operation) -> operation.kind() == kind).map(Operation::start).sorted().toList();
	}

	private static @Nullable Long earliest(List<Operation> operations, OpKind kind) {
		return operations.stream()
			.filter((operation) -> operation.kind() == kind)
			.map(Operation::start)
			.min(Long::compare)
			.orElse(null);
	}

	private static @Nullable Long latest(List<Operation> operations, OpKind kind) {
		return operations.stream()
			.filter((operation) -> operation.kind() == kind)
			.map(Operation::start)
			.max(Long::compare)
			.orElse(null);
	}

	/**
	 * Return the last revocation, unless the term was granted again after it.
	 */
	private static @Nullable Long finalRevocation(List<Operation> operations) {
		Long revoked = latest(operations, OpKind.LEADER_REVOKED);
		Long granted = latest(operations, OpKind.LEADER_GRANTED);
		return (revoked != null && (granted == null || granted <= revoked)) ? revoked : null;
	}

	boolean hasTicks() {
		return !this.ticks.isEmpty();
	}

	long firstTickStart() {
		return this.ticks.get(0).start();
	}

	long lastTickEnd() {
		return this.ticks.stream().mapToLong(Operation::end).max().orElseThrow();
	}

	/**
	 * Return the first sign of the term: its grant, else its first tick, else its revocation.
	 * @return the start
	 */
	long start() {
		if (this.grantedAt != null) {
			return this.grantedAt;
		}
		return hasTicks() ? firstTickStart() : Objects.requireNonNull(this.revokedAt);
	}

	/**
	 * Return the last sign of the term: the latest of its grant, last tick and revocation.
	 * @return the end
	 */
	long end() {
		long end = start();
		if (hasTicks()) {
			end = Math.max(end, lastTickEnd());
		}
		return (this.revokedAt != null) ? Math.max(end, this.revokedAt) : end;
	}

	@Override
	public String toString() {
		return this.process + "#" + this.epoch;
	}

}
