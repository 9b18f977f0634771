package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;
import dev.zklock.systemtest.register.RegisterState;

/**
 * Checks {@link Invariant#LOST_UPDATE} on the fenced registers. Every accepted write of a
 * register sets it to the value read under the same token plus one, and the fence lets no other
 * write in between, so its value must equal its accepted writes; and a process reports an
 * increment ok only once its write was accepted, so the ok increments of the lock key of the same
 * name cannot outnumber them. Once the workload has stopped, every accepted write is also
 * accounted for: accepted writes are at most the ok increments plus those in doubt (ended
 * {@code lock-lost} or {@code error} after their lock was granted, or cut short by a kill).
 * Unfenced registers are not checked: their lost updates measure the lock alone.
 */
final class RegisterCheck {

	private RegisterCheck() {
	}

	/**
	 * Check the registers.
	 * @param registers the registers' states
	 * @param operations the history
	 * @param inDoubtPerKill for a history of a stopped workload, how many increments a kill of a
	 * process may cut short (its threads that increment); negative while the workload runs
	 * @return the violations
	 */
	static List<Violation> check(Collection<RegisterState> registers, List<Operation> operations, int inDoubtPerKill) {
		List<Violation> violations = new ArrayList<>();
		long kills = operations.stream()
			.filter((operation) -> operation.kind() == OpKind.NEMESIS && operation.detail() != null
					&& operation.detail().startsWith("kill-app"))
			.count();
		for (RegisterState register : registers) {
			if (register.isUnfenced()) {
				continue;
			}
			if (register.value() != register.acceptedWrites()) {
				violations.add(new Violation(Invariant.LOST_UPDATE, "Register '" + register.name() + "' holds "
						+ register.value() + " after " + register.acceptedWrites() + " accepted writes", List.of()));
			}
			List<Operation> increments = operations.stream()
				.filter((operation) -> operation.kind() == OpKind.EXCLUSIVE_INCREMENT
						&& operation.key().equals(register.name()))
				.toList();
			long ok = increments.stream().filter(Operation::isOk).count();
			if (ok > register.acceptedWrites()) {
				violations.add(new Violation(Invariant.LOST_UPDATE, ok + " increments of '" + register.name()
						+ "' ended ok but it accepted only " + register.acceptedWrites() + " writes", List.of()));
			}
			if (inDoubtPerKill >= 0) {
				long inDoubt = increments.stream()
					.filter((operation) -> operation.token() != null && (operation.outcome() == Outcome.LOCK_LOST
							|| operation.outcome() == Outcome.ERROR))
					.count() + kills * inDoubtPerKill;
				if (register.acceptedWrites() > ok + inDoubt) {
					violations.add(new Violation(Invariant.LOST_UPDATE, "Register '" + register.name() + "' accepted "
							+ register.acceptedWrites() + " writes but only " + ok + " increments ended ok and " + inDoubt
							+ " are in doubt", List.of()));
				}
			}
		}
		return violations;
	}

}
