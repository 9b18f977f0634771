package dev.zklock.lock;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;

/**
 * The locks one call acquired, in the order it acquired them.
 */
public final class Acquisition {

	private final List<Hold> holds;

	Acquisition(List<Hold> holds) {
		this.holds = holds;
	}

	List<Hold> holds() {
		return this.holds;
	}

	/**
	 * Return the lock acquired last, the one the call sees as current.
	 * @return the innermost lock
	 */
	public HeldLock innermost() {
		return this.holds.get(this.holds.size() - 1);
	}

	/**
	 * Check, as an asynchronous call's work ends, that every lock is still certainly held,
	 * without blocking.
	 * @return completed with the {@link LockLostException} naming the first lock that is lost or
	 * in doubt, or with {@code null}
	 */
	CompletableFuture<@Nullable RuntimeException> checkHeldAsync() {
		CompletableFuture<@Nullable RuntimeException> check = CompletableFuture.completedFuture(null);
		for (Hold hold : this.holds) {
			check = check.thenCompose((lost) -> (lost != null) ? CompletableFuture.completedFuture(lost)
					: hold.lock().isValidAsync().handle((valid, ex) -> Boolean.TRUE.equals(valid) ? null : lost(hold)));
		}
		return check;
	}

	private static LockLostException lost(Hold hold) {
		return new LockLostException(hold.key(), hold.lock().reason()
				+ "; the call's result is discarded, and what it did may have overlapped with another holder");
	}

	/**
	 * Check, as the call returns, that every lock is still certainly held.
	 * @throws LockLostException naming the first lock that is lost or in doubt
	 */
	public void ensureHeld() {
		for (Hold hold : this.holds) {
			if (!hold.lock().isValid()) {
				throw lost(hold);
			}
		}
	}

}
