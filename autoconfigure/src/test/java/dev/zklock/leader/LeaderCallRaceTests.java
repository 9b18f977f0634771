package dev.zklock.leader;

import java.util.List;

import dev.zklock.LeaderTerm;
import dev.zklock.LeadershipLostException;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.support.CallStyle;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A revocation against the end of the {@code interruptOnRevoke} call it means to interrupt,
 * explored by Lincheck's model checker over the real {@link LeaderCalls}: the call runs on the
 * test's own thread, the revocation (its term made invalid, then {@link LeaderCalls#revoked})
 * on another, and the scheduler places the revocation's steps everywhere around the call's end.
 */
@Timeout(120)
class LeaderCallRaceTests {

	private static final int INVOCATIONS = 100;

	private static final String GROUP = "jobs";

	private static final long EPOCH = 7;

	private final FixedLeadership leadership = new FixedLeadership(LeaderTestMode.ALWAYS, "a",
			new LeaderMethods(GROUP, (group) -> group), List.of());

	private final LeaderSpec spec = new LeaderSpec(GROUP, WhenNotLeader.SKIP, CallStyle.BLOCKING, true);

	@Test
	void revocationNeverInterruptsTheThreadAfterTheCallReturned() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> {
			LeaderCalls calls = new LeaderCalls();
			RaceTerm term = new RaceTerm();
			Thread revoking = RaceThreads.start(() -> {
				term.valid = false;
				calls.revoked(GROUP, EPOCH, "revoked");
			});
			try {
				calls.proceed(() -> "done", this.spec, term, this.leadership);
			}
			catch (LeadershipLostException ex) {
				// The revocation came first: the call ends lost, which is not the point here.
			}
			catch (Throwable ex) {
				throw new AssertionError("the call failed", ex);
			}
			boolean interruptedInJoin = !RaceThreads.joinUninterruptibly(revoking);
			RaceThreads.check(!interruptedInJoin && !Thread.interrupted(),
					"the revocation interrupted the thread after the call had returned");
		});
	}

	private static final class RaceTerm implements LeaderTerm {

		private volatile boolean valid = true;

		@Override
		public String group() {
			return GROUP;
		}

		@Override
		public long epoch() {
			return EPOCH;
		}

		@Override
		public boolean isValid() {
			return this.valid;
		}

		@Override
		public void ensureValid() {
		}

	}

}
