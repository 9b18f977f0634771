package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.zklock.systemtest.history.Operation;

/**
 * Checks {@link Invariant#DUAL_LEADER}, {@link Invariant#TICK_AFTER_REVOCATION} and
 * {@link Invariant#EPOCH_ORDER} on the terms of one leader group, and measures its failovers.
 */
final class LeaderCheck {

	private final List<LeaderTerm> terms;

	private final List<LeaderTerm> ticking;

	LeaderCheck(List<Operation> operations) {
		this.terms = LeaderTerm.of(operations);
		this.ticking = this.terms.stream()
			.filter(LeaderTerm::hasTicks)
			.sorted(Comparator.comparingLong(LeaderTerm::firstTickStart))
			.toList();
	}

	List<Violation> check() {
		List<Violation> violations = new ArrayList<>();
		checkTicksAfterRevocation(violations);
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
