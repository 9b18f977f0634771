package dev.zklock.lock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * The local grants made on one node together: an exclusive grant alone, or the shared grants
 * that run together. They share one fencing token. The first batch on a node has the node's grant
 * token, taken when ZooKeeper granted the node, at no cost; so do all batches of a shared node
 * (shared grants need only exceed the exclusive ones before them). A later batch on an exclusive
 * node (a local handoff, or the reuse of a kept lock) takes the node's next token when one of its
 * grants first asks for it: the next local count, and once in {@link FencingTokenSpace#MAX_COUNT}
 * grants a write to the node (see {@link ActiveLock#newToken()} and {@code docs/lock-core.md}).
 */
final class GrantBatch {

	private final boolean free;

	private final ReentrantLock lock = new ReentrantLock();

	private volatile long token;

	private @Nullable CompletableFuture<Long> pending;

	private GrantBatch(boolean free) {
		this.free = free;
	}

	/**
	 * Return the batch for the first grants on a node, or for grants that need no new token.
	 */
	static GrantBatch first() {
		return new GrantBatch(true);
	}

	/**
	 * Return a batch that follows others on the same node.
	 * @param node the node's mode decides whether the batch needs a new token
	 */
	static GrantBatch next(ActiveLock node) {
		return new GrantBatch(node.mode() == dev.zklock.LockMode.SHARED);
	}

	long knownToken(ActiveLock lock) {
		return this.free ? lock.firstToken() : this.token;
	}

	/**
	 * Return the batch's token, waiting on the caller's thread for it if the node needs a new
	 * zxid. The batch's lock is never held while a token is awaited, so that a grant of the batch
	 * that asks without blocking ({@link #tokenAsync}) is not held up by one that blocks.
	 */
	long token(ActiveLock lock) {
		CompletableFuture<Long> pending;
		CompletableFuture<Long> taking = null;
		acquire();
		try {
			if (this.token != 0) {
				return this.token;
			}
			pending = this.pending;
			if (pending == null || pending.isCompletedExceptionally()) {
				taking = new CompletableFuture<>();
				this.pending = taking;
			}
		}
		finally {
			this.lock.unlock();
		}
		if (taking == null) {
			return lock.awaitToken(pending);
		}
		try {
			long taken = tokenTaken(lock.newToken());
			taking.complete(taken);
			return taken;
		}
		catch (RuntimeException | Error ex) {
			taking.completeExceptionally(ex);
			throw ex;
		}
	}

	/**
	 * Return the batch's token without blocking: known already, or taken once for the whole
	 * batch (when the node needs a new zxid, with a write in the background).
	 */
	CompletableFuture<Long> tokenAsync(ActiveLock lock) {
		long known = knownToken(lock);
		if (known != 0) {
			return CompletableFuture.completedFuture(known);
		}
		acquire();
		try {
			if (this.token != 0) {
				return CompletableFuture.completedFuture(this.token);
			}
			if (this.pending == null || this.pending.isCompletedExceptionally()) {
				this.pending = lock.newTokenAsync().thenApply(this::tokenTaken);
			}
			return this.pending;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Take the batch's lock (a name of its own, so that BlockHound is told only about this wait).
	 */
	private void acquire() {
		this.lock.lock();
	}

	private long tokenTaken(long taken) {
		acquire();
		try {
			if (this.token == 0) {
				this.token = taken;
			}
			return this.token;
		}
		finally {
			this.lock.unlock();
		}
	}

}
