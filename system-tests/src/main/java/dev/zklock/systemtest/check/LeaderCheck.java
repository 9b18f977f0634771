package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.zklock.systemtest.history.Operation;

/**
 * Checks {@link Invariant#DUAL_LEADER}, {@link Invariant#STALE_TICK},
 * {@link Invariant#TICK_AFTER_REVOCATION} and {@link Invariant#EPOCH_ORDER} on the terms of one
 * leader group, and measures its failovers.
 */
final class LeaderCheck {

	private final List<LeaderTerm> terms;

	private final List<LeaderTerm> ticking;

	private final List<Operation> connections;

	/**
	 * Create a check of one group.
	 * @param operations the group's leadership operations
	 * @param connections the connection changes of every process
	 */
	LeaderCheck(List<Operation> operations, List<Operation> connections) {
		this.connections = connections;
		this.terms = LeaderTerm.of(operations);
		this.ticking = this.terms.stream()
			.filter(LeaderTerm::hasTicks)
			.sorted(Comparator.comparingLong(LeaderTerm::firstTickStart))
			.toList();
	}

	List<Violation> check() {
		List<Violation> violations = new ArrayList<>();
		checkTicksAfterRevocation(violations);
		checkTicksBeforeReconnection(violations);
		checkStaleTicks(violations);
		checkInterleaving(violations);
		checkEpochs(violations);
		return violations;
	}

	/**
	 * Return the failovers: from each ticking term to the next one to tick.
	 * @return the failovers, in time order
	 */
	List<Failover> failovers() {
		List<Failover> failovers = new ArrayList<>();
		for (int i = 1; i < this.ticking.size(); i++) {
			LeaderTerm from = this.ticking.get(i - 1);
			LeaderTerm to = this.ticking.get(i);
			failovers.add(new Failover(to.group(), from.process(), from.epoch(), to.process(), to.epoch(),
					from.lastTickEnd(), from.revokedAt(), to.firstTickStart()));
		}
		return failovers;
	}

	private void checkTicksAfterRevocation(List<Violation> violations) {
		for (LeaderTerm term : this.terms) {
			Long revokedAt = term.revokedAt();
			if (revokedAt == null) {
				continue;
			}
			for (Operation tick : term.ticks()) {
				if (tick.start() > revokedAt) {
					violations.add(new Violation(Invariant.TICK_AFTER_REVOCATION, term + " in '" + term.group()
							+ "' ticked " + (tick.start() - revokedAt) + " ms after its revocation", List.of(tick)));
				}
			}
		}
	}

	/**
	 * A term revoked on a suspension may be granted again only once its process has reconnected:
	 * a tick that starts after a revocation and ends before the next reconnection (or grant, if
	 * none was logged) came while the process knew it did not lead.
	 */
	private void checkTicksBeforeReconnection(List<Violation> violations) {
		for (LeaderTerm term : this.terms) {
			for (long revoked : term.revocations()) {
				long until = Math.min(nextReconnection(term.process(), revoked), nextGrant(term, revoked));
				for (Operation tick : term.ticks()) {
					boolean afterFinalRevocation = term.revokedAt() != null && tick.start() > term.revokedAt();
					if (tick.start() > revoked && tick.end() < until && !afterFinalRevocation) {
						violations.add(new Violation(Invariant.TICK_AFTER_REVOCATION, term + " in '" + term.group()
								+ "' ticked " + (tick.start() - revoked) + " ms after a revocation, before it reconnected",
								List.of(tick)));
					}
				}
			}
		}
	}

	private long nextReconnection(String process, long after) {
		return this.connections.stream()
			.filter((event) -> event.process().equals(process) && event.start() > after
					&& ("RECONNECTED".equals(event.detail()) || "CONNECTED".equals(event.detail())))
			.mapToLong(Operation::start)
			.min()
			.orElse(Long.MAX_VALUE);
	}

	private static long nextGrant(LeaderTerm term, long after) {
		return term.grants().stream().filter((granted) -> granted > after).findFirst().orElse(Long.MAX_VALUE);
	}

	/**
	 * No tick of a term starts after a term with a higher epoch began.
	 */
	private void checkStaleTicks(List<Violation> violations) {
		List<LeaderTerm> byEpoch = this.terms.stream()
			.sorted(Comparator.comparingLong(LeaderTerm::epoch).reversed())
			.toList();
		LeaderTerm earliestLater = null;
		for (LeaderTerm term : byEpoch) {
			if (earliestLater != null) {
				long began = began(earliestLater);
				List<Operation> stale = term.ticks().stream().filter((tick) -> tick.start() > began).toList();
				if (!stale.isEmpty()) {
					violations.add(new Violation(Invariant.STALE_TICK, term + " in '" + term.group() + "' ticked "
							+ stale.size() + " times after " + earliestLater + " began, the first "
							+ (stale.get(0).start() - began) + " ms after", List.of(stale.get(0))));
				}
			}
			if (earliestLater == null || began(term) < began(earliestLater)) {
				earliestLater = term;
			}
		}
	}

	/**
	 * Return when a term began: its grant, else its first tick; never for a term seen only by
	 * its revocation.
	 */
	private static long began(LeaderTerm term) {
		Long grantedAt = term.grantedAt();
		if (grantedAt != null) {
			return grantedAt;
		}
		return term.hasTicks() ? term.firstTickStart() : Long.MAX_VALUE;
	}

	private void checkInterleaving(List<Violation> violations) {
		for (int i = 0; i < this.ticking.size(); i++) {
			LeaderTerm earlier = this.ticking.get(i);
			if (earlier.revokedAt() != null) {
				continue;
			}
			for (int j = i + 1; j < this.ticking.size(); j++) {
				LeaderTerm later = this.ticking.get(j);
				if (later.firstTickStart() < earlier.lastTickEnd()) {
					Operation lastTick = earlier.ticks().stream().max(Comparator.comparingLong(Operation::end)).orElseThrow();
					violations.add(new Violation(Invariant.DUAL_LEADER, earlier + " and " + later + " both led '"
							+ earlier.group() + "', and " + earlier + " was never revoked",
							List.of(later.ticks().get(0), lastTick)));
				}
			}
		}
	}

	private void checkEpochs(List<Violation> violations) {
		for (int i = 0; i < this.terms.size(); i++) {
			for (int j = i + 1; j < this.terms.size(); j++) {
				LeaderTerm one = this.terms.get(i);
				LeaderTerm other = this.terms.get(j);
				if (one.epoch() == other.epoch()) {
					violations.add(new Violation(Invariant.EPOCH_ORDER, one + " and " + other + " share epoch "
							+ one.epoch() + " in '" + one.group() + "'", List.of()));
				}
				else if (one.end() < other.start() && one.epoch() > other.epoch()) {
					violations.add(epochDecrease(one, other));
				}
				else if (other.end() < one.start() && other.epoch() > one.epoch()) {
					violations.add(epochDecrease(other, one));
				}
			}
		}
	}

	private static Violation epochDecrease(LeaderTerm before, LeaderTerm after) {
		return new Violation(Invariant.EPOCH_ORDER, after + " began in '" + after.group() + "' after " + before
				+ " ended, with a lower epoch", List.of());
	}

}
