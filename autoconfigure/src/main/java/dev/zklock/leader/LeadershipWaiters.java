package dev.zklock.leader;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.zklock.LeaderTerm;

/**
 * Wakes the threads that wait to lead a group when a term begins.
 */
final class LeadershipWaiters implements LeadershipListener {

	private static final long MAX_WAIT_MILLIS = 200;

	private long grants;

	/**
	 * Wait until the supplier gives a term, or the timeout passes.
	 */
	Optional<LeaderTerm> await(Supplier<Optional<LeaderTerm>> term, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			long seen;
			synchronized (this) {
				seen = this.grants;
			}
			Optional<LeaderTerm> current = term.get();
			long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
			if (current.isPresent() || remaining <= 0) {
				return current;
			}
			synchronized (this) {
				if (this.grants == seen) {
					wait(Math.min(remaining, MAX_WAIT_MILLIS)); // Bounded: a confirmation may also end a doubt.
				}
			}
		}
	}

	@Override
	public synchronized void granted(String group, long epoch) {
		this.grants++;
		notifyAll();
	}

	@Override
	public void revoked(String group, long epoch, String reason) {
	}

}
