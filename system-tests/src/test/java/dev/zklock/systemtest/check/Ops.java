package dev.zklock.systemtest.check;

import dev.zklock.systemtest.history.OpKind;
import dev.zklock.systemtest.history.Operation;
import dev.zklock.systemtest.history.Outcome;

/**
 * Short ways to write the operations of hand-made histories.
 */
final class Ops {

	static final String GROUP = "ticker";

	private Ops() {
	}

	static Operation excl(String process, String key, long start, long end, long token, Outcome outcome) {
		return Operation.of(process, OpKind.EXCLUSIVE_INCREMENT, key, start, end, token, outcome);
	}

	static Operation shared(String process, String key, long start, long end, long token, Outcome outcome) {
		return Operation.of(process, OpKind.SHARED_READ, key, start, end, token, outcome);
	}

	static Operation tick(String process, long start, long end, long epoch) {
		return Operation.of(process, OpKind.LEADER_TICK, GROUP, start, end, epoch, Outcome.OK);
	}

	static Operation granted(String process, long time, long epoch) {
		return Operation.event(process, OpKind.LEADER_GRANTED, GROUP, time, epoch);
	}

	static Operation connection(String process, long time, String state) {
		return Operation.connection(process, time, state);
	}

	static Operation fault(String target, long start, long end, String label) {
		return new Operation("nemesis", OpKind.NEMESIS, target, start, end, null, Outcome.OK, null, label);
	}

	static Operation revoked(String process, long time, long epoch) {
		return Operation.event(process, OpKind.LEADER_REVOKED, GROUP, time, epoch);
	}

}
