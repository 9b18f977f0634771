package dev.zklock.systemtest.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.register.RegisterState;

/**
 * Checks {@link Invariant#LOST_UPDATE}. Every accepted write of a register sets it to the value
 * read under the same token plus one, and the fence lets no other write in between, so its value
 * must equal its accepted writes; and a process reports an increment ok only once its write was
 * accepted, so the ok increments of the lock key of the same name cannot outnumber them.
 */
final class RegisterCheck {

	private RegisterCheck() {
	}

	static List<Violation> check(Collection<RegisterState> registers, List<Operation> operations) {
		List<Violation> violations = new ArrayList<>();
		for (RegisterState register : registers) {
			if (register.value() != register.acceptedWrites()) {
				violations.add(new Violation(Invariant.LOST_UPDATE, "Register '" + register.name() + "' holds "
						+ register.value() + " after " + register.acceptedWrites() + " accepted writes", List.of()));
			}
			long okIncrements = operations.stream()
				.filter((operation) -> operation.kind() == OpKind.EXCLUSIVE_INCREMENT && operation.isOk()
						&& operation.key().equals(register.name()))
				.count();
			if (okIncrements > register.acceptedWrites()) {
				violations.add(new Violation(Invariant.LOST_UPDATE, okIncrements + " increments of '" + register.name()
						+ "' ended ok but it accepted only " + register.acceptedWrites() + " writes", List.of()));
			}
		}
		return violations;
	}

}
