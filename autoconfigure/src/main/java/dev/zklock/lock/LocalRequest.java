package dev.zklock.lock;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;

/**
 * A call of this instance waiting in a key's local queue. Completed with its grant, or with
 * {@code null} when a call that will not wait cannot have the lock now.
 */
final class LocalRequest {

	private final String key;

	private final LockMode mode;

	private final Deadline deadline;

	private final @Nullable Thread thread;

	private final @Nullable String call;

	private final Instant since = Instant.now();

	private final CompletableFuture<@Nullable Hold> result = new CompletableFuture<>();

	private volatile boolean waitsForOthers;

	/**
	 * Create the request of a call that waits on its thread.
	 * @param deadline when the call gives up
	 */
	LocalRequest(String key, LockMode mode, Deadline deadline) {
		this(key, mode, deadline, Thread.currentThread(), NodeOwners.call(null));
	}

	/**
	 * Create a request.
	 * @param deadline when the call gives up
	 * @param thread the thread that will hold the grant, {@code null} for an asynchronous call
	 * @param call what the call is named in a lock node's data, if anything
	 */
	LocalRequest(String key, LockMode mode, Deadline deadline, @Nullable Thread thread, @Nullable String call) {
		this.key = key;
		this.mode = mode;
		this.deadline = deadline;
		this.thread = thread;
		this.call = call;
	}

	String key() {
		return this.key;
	}

	LockMode mode() {
		return this.mode;
	}

	boolean tryOnce() {
		return this.deadline.isNoWait();
	}

	/**
	 * Return whether the call's wait is over although nothing answered it yet (its timer, or its
	 * waiting thread, may not have looked yet): by the same rule they follow
	 * ({@link Deadline#answerNanos}). A call that will not wait is answered on its first look
	 * instead.
	 */
	boolean hasGivenUp() {
		return !this.deadline.isNoWait() && this.deadline.answerNanos(this.waitsForOthers) == 0;
	}

	@Nullable Thread thread() {
		return this.thread;
	}

	/**
	 * Return until when the call's thread waits for ZooKeeper's answer to a request made for it
	 * ({@link Deadline#requestNanos()}), on the port's clock: 0 if no thread waits (an
	 * asynchronous call), {@link Long#MAX_VALUE} if it waits for as long as it takes.
	 * @param now the port's time now
	 */
	long answerBy(long now) {
		if (this.thread == null) {
			return 0;
		}
		long nanos = this.deadline.requestNanos();
		return (nanos >= Long.MAX_VALUE / 4) ? Long.MAX_VALUE : now + nanos;
	}

	Instant since() {
		return this.since;
	}

	@Nullable String call() {
		return this.call;
	}

	/**
	 * Mark the call as waiting for another holder (a call of this instance, or another instance),
	 * not only for ZooKeeper's answer: from now on its wait time alone decides when it gives up.
	 */
	void waitsForOthers() {
		this.waitsForOthers = true;
	}

	boolean isWaitingForOthers() {
		return this.waitsForOthers;
	}

	CompletableFuture<@Nullable Hold> result() {
		return this.result;
	}

}
