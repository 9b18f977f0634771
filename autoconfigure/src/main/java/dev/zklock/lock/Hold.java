package dev.zklock.lock;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.zklock.HeldLock;
import dev.zklock.LockLostException;
import dev.zklock.LockMode;

/**
 * One local grant of a lock, to one call: the first acquisition of the key by the call owns the
 * grant, reentrant ones share it. Its fencing token is its batch's (see {@link GrantBatch}).
 */
final class Hold implements HeldLock {

	private final ActiveLock lock;

	private final LockMode mode;

	private final GrantBatch batch;

	private final LockMode grantMode;

	private final boolean owner;

	private final @Nullable Thread holder;

	private final Instant since = Instant.now();

	private volatile boolean released;

	private volatile long given;

	private @Nullable KeyLock keyLock;

	private boolean reusesKeptLock;

	private long grantedAt;

	Hold(ActiveLock lock, LockMode mode, GrantBatch batch, boolean owner, @Nullable Thread holder) {
		this(lock, mode, mode, batch, owner, holder);
	}

	private Hold(ActiveLock lock, LockMode mode, LockMode grantMode, GrantBatch batch, boolean owner,
			@Nullable Thread holder) {
		this.lock = lock;
		this.mode = mode;
		this.grantMode = grantMode;
		this.batch = batch;
		this.owner = owner;
		this.holder = holder;
	}

	/**
	 * Return a reentrant acquisition of this grant.
	 */
	Hold reentered(LockMode mode) {
		return new Hold(this.lock, mode, this.grantMode, this.batch, false, Thread.currentThread());
	}

	/**
	 * Return the key's local state that made this grant, or {@code null} for a grant with a node
	 * of its own.
	 */
	@Nullable KeyLock keyLock() {
		return this.keyLock;
	}

	Hold madeBy(KeyLock keyLock, boolean reusesKeptLock) {
		this.keyLock = keyLock;
		this.reusesKeptLock = reusesKeptLock;
		this.grantedAt = keyLock.port().nanoTime();
		return this;
	}

	/**
	 * Return when the key's local state made this grant, on the port's clock (0 for a grant with
	 * a node of its own).
	 */
	long grantedAt() {
		return this.grantedAt;
	}

	/**
	 * Return whether this grant reused a lock the instance kept.
	 */
	boolean reusesKeptLock() {
		return this.reusesKeptLock;
	}

	/**
	 * Return the mode of the grant this acquisition belongs to (the outermost one's).
	 */
	LockMode grantMode() {
		return this.grantMode;
	}

	ActiveLock lock() {
		return this.lock;
	}

	boolean owner() {
		return this.owner;
	}

	Instant since() {
		return this.since;
	}

	/**
	 * Return the name of the thread that holds the grant, or a description of an asynchronous
	 * call, which has no thread.
	 */
	String holderName() {
		return (this.holder != null) ? this.holder.getName() : "an asynchronous call";
	}

	/**
	 * Return who holds the grant: its thread (a reentrant call's holds share it), or the hold
	 * itself for an asynchronous call, whose holds share no thread.
	 */
	Object holderIdentity() {
		return (this.holder != null) ? this.holder : this;
	}

	/**
	 * Return the stack of the thread that holds the grant, empty for an asynchronous call.
	 */
	StackTraceElement[] holderStack() {
		return (this.holder != null) ? this.holder.getStackTrace() : new StackTraceElement[0];
	}

	/**
	 * Interrupt the holder's thread, if the grant belongs to a thread.
	 */
	void interruptHolder() {
		if (this.holder != null) {
			this.holder.interrupt();
		}
	}

	void released() {
		this.released = true;
	}

	boolean isReleased() {
		return this.released;
	}

	/**
	 * Return the token if it is known without asking ZooKeeper, else 0.
	 */
	long knownToken() {
		return this.batch.knownToken(this.lock);
	}

	@Override
	public String key() {
		return this.lock.key();
	}

	@Override
	public LockMode mode() {
		return this.mode;
	}

	/**
	 * Return the token: the one this grant already gave, or, while the grant is held and
	 * certainly valid, its batch's (see {@link GrantBatch}). A token first asked after the
	 * release is refused ({@link IllegalStateException}), one first asked while the lock is in
	 * doubt or lost too ({@link LockLostException}): no token could be honest then.
	 */
	@Override
	public long fencingToken() {
		long given = this.given;
		if (given != 0) {
			return given;
		}
		if (this.released) {
			throw releasedBeforeToken();
		}
		long known = knownToken();
		if (known != 0) {
			if (!this.lock.isValid()) {
				throw new LockLostException(key(), this.lock.reason());
			}
			return given(known);
		}
		return given(this.batch.token(this.lock));
	}

	@Override
	public CompletableFuture<Long> fencingTokenAsync() {
		long given = this.given;
		if (given != 0) {
			return CompletableFuture.completedFuture(given);
		}
		if (this.released) {
			return CompletableFuture.failedFuture(releasedBeforeToken());
		}
		long known = knownToken();
		if (known != 0) {
			return this.lock.isValidAsync().thenApply((valid) -> {
				if (!valid) {
					throw new LockLostException(key(), this.lock.reason());
				}
				return given(known);
			});
		}
		return this.batch.tokenAsync(this.lock).thenApply(this::given);
	}

	private long given(long token) {
		this.given = token;
		return token;
	}

	private IllegalStateException releasedBeforeToken() {
		return new IllegalStateException("The lock on key '" + key() + "' was released before its fencing token "
				+ "was asked for: ask for the token inside the locked call");
	}

	@Override
	public boolean isValid() {
		return !this.released && this.lock.isValid();
	}

	@Override
	public void ensureValid() {
		if (!isValid()) {
			throw new LockLostException(key(),
					this.released ? "the call has released it" : this.lock.reason());
		}
	}

	@Override
	public String toString() {
		long token = this.given;
		return "HeldLock[key=" + key() + ", mode=" + this.mode + ", fencingToken="
				+ ((token != 0) ? token : "not taken yet") + "]";
	}

}
