package dev.zklock.leader;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.LeaderTerm;
import dev.zklock.LeadershipLostException;
import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.leader.LeaderCalls.RunningCall;
import dev.zklock.support.AdvisedCall;
import dev.zklock.support.CallStyle;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interruption of a leader-only call with {@code interruptOnRevoke} by the end of its term,
 * on a pooled thread, with the revocation's steps placed by hand: which calls it found, and when
 * it interrupts them.
 */
class LeaderCallsTests {

	private static final String GROUP = "jobs";

	private static final long EPOCH = 7;

	private final LeaderCalls calls = new LeaderCalls();

	private final ExecutorService pool = Executors.newSingleThreadExecutor();

	private final FixedLeadership leadership = new FixedLeadership(LeaderTestMode.ALWAYS, "a",
			new LeaderMethods(GROUP, (group) -> group), List.of());

	private final LeaderSpec spec = new LeaderSpec(GROUP, WhenNotLeader.SKIP, CallStyle.BLOCKING, true);

	@AfterEach
	void closePool() {
		this.pool.shutdownNow();
	}

	@Test
	void revocationThatFoundACallBeforeItEndedDoesNotInterruptThePooledThreadAfterwards() throws Exception {
		AtomicReference<List<RunningCall>> found = new AtomicReference<>();
		Term term = new Term();
		Object result = this.pool.submit(() -> proceed(() -> {
			found.set(this.calls.running(GROUP, EPOCH)); // The revocation finds the call...
			return "done";
		}, term)).get(10, TimeUnit.SECONDS);
		assertThat(result).isEqualTo("done");
		assertThat(found.get()).hasSize(1);
		term.valid = false;
		CountDownLatch nextTaskRuns = new CountDownLatch(1);
		AtomicBoolean lateInterruptDone = new AtomicBoolean();
		Future<Boolean> nextTaskInterrupted = this.pool.submit(() -> {
			nextTaskRuns.countDown();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (!lateInterruptDone.get() && System.nanoTime() - deadline < 0) {
				Thread.onSpinWait(); // Not an interruptible wait, which would clear the flag.
			}
			return Thread.currentThread().isInterrupted();
		});
		assertThat(nextTaskRuns.await(10, TimeUnit.SECONDS)).isTrue();
		found.get().forEach(RunningCall::interrupt); // ...and interrupts it once it has returned.
		lateInterruptDone.set(true);
		assertThat(nextTaskInterrupted.get(10, TimeUnit.SECONDS)).as("the pooled thread's next task interrupted")
			.isFalse();
	}

	@Test
	void revocationDuringTheCallInterruptsItAndTheCallEndsWithLeadershipLost() throws Exception {
		Term term = new Term();
		CompletableFuture<Throwable> ended = new CompletableFuture<>();
		this.pool.execute(() -> {
			try {
				this.calls.proceed(() -> {
					term.valid = false;
					this.calls.revoked(GROUP, EPOCH, "test");
					Thread.sleep(10_000); // Interrupted at once.
					return null;
				}, this.spec, term, this.leadership);
				ended.complete(null);
			}
			catch (Throwable ex) {
				ended.complete(ex);
			}
		});
		assertThat(ended.get(10, TimeUnit.SECONDS)).isInstanceOf(LeadershipLostException.class)
			.hasCauseInstanceOf(InterruptedException.class);
		boolean nextTaskInterrupted = this.pool.submit(() -> Thread.currentThread().isInterrupted())
			.get(10, TimeUnit.SECONDS);
		assertThat(nextTaskInterrupted).as("the pooled thread's next task interrupted").isFalse();
	}

	private @Nullable Object proceed(AdvisedCall call, LeaderTerm term) throws Exception {
		try {
			return this.calls.proceed(call, this.spec, term, this.leadership);
		}
		catch (Exception | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static final class Term implements LeaderTerm {

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
