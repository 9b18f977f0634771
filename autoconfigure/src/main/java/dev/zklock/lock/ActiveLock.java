package dev.zklock.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockLostException;
import dev.zklock.LockMode;
import dev.zklock.zookeeper.ZooKeeperPort;
import dev.zklock.zookeeper.ZooKeeperPort.NodeStat;

/**
 * A lock node this instance holds, whether one call uses it, several calls in turn, or none (a
 * kept lock), and whether it is certainly still held. Connection changes move it between
 * {@code VALID}, {@code IN_DOUBT} and {@code LOST}; after a possible process pause it is trusted
 * again only once the server has confirmed it. Every local grant made on it sees its state.
 */
final class ActiveLock {

	private static final Log logger = LogFactory.getLog(ActiveLock.class);

	private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(5);

	private static final long RECONFIRM_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	enum State {

		VALID, IN_DOUBT, LOST

	}

	private final String key;

	private final LockNode node;

	private final Instant since = Instant.now();

	private final ZooKeeperPort port;

	private final Pauses pauses;

	private final LockCallListener listener;

	private final Runnable onChange;

	/**
	 * The holds of the lock: one, but where shared holders or a handoff's grants overlap.
	 */
	private final OrderedSet<Hold> holds = new OrderedSet<>(1);

	private final ReentrantLock tokenLock = new ReentrantLock();

	private volatile State state = State.VALID;

	private volatile String reason = "";

	private volatile long confirmedAt;

	private boolean doubtAfterPause;

	private final int tokensPerWrite;

	private long tokenZxid;

	private int tokenCount;

	private @Nullable CompletableFuture<NodeStat> tokenWrite;

	private volatile byte[] data = new byte[0];

	/**
	 * Create the state of a node that was just granted.
	 * @param tokensPerWrite how many tokens a zxid of the node gives before a write (at most
	 * {@link FencingTokenSpace#MAX_COUNT})
	 * @param onChange told after every state change, outside this object's lock
	 */
	ActiveLock(String key, LockNode node, ZooKeeperPort port, Pauses pauses, LockCallListener listener,
			int tokensPerWrite, Runnable onChange) {
		this.key = key;
		this.node = node;
		this.port = port;
		this.pauses = pauses;
		this.confirmedAt = node.confirmedAt();
		this.listener = listener;
		this.onChange = onChange;
		this.tokensPerWrite = tokensPerWrite;
		this.tokenZxid = node.grantZxid();
	}

	String key() {
		return this.key;
	}

	/**
	 * Keep the data the node was created with ({@link NodeOwner}): a write to the node writes it
	 * again, so that the node goes on naming its owner.
	 */
	ActiveLock ownedBy(byte[] data) {
		this.data = data;
		return this;
	}

	/**
	 * Return the call that asked for the node, as its data names it.
	 */
	@Nullable String call() {
		NodeOwner owner = NodeOwner.parse(this.data);
		return (owner != null) ? owner.call() : null;
	}

	LockMode mode() {
		return this.node.mode();
	}

	LockNode node() {
		return this.node;
	}

	Instant since() {
		return this.since;
	}

	State state() {
		return this.state;
	}

	String reason() {
		return this.reason;
	}

	List<Hold> holds() {
		return this.holds.snapshot();
	}

	void added(Hold hold) {
		this.holds.add(hold);
	}

	void removed(Hold hold) {
		this.holds.remove(hold);
	}

	/**
	 * Return whether the lock is certainly held, asking the server when a process pause may have
	 * outlasted the session.
	 */
	boolean isValid() {
		if (this.state != State.VALID) {
			return false;
		}
		if (!this.pauses.mayHavePausedSince(this.confirmedAt)) {
			return true;
		}
		return confirm();
	}

	/**
	 * Return, without blocking, whether the lock is certainly held: {@link #isValid()} with the
	 * server's confirmation after a pause asked in the background.
	 */
	CompletableFuture<Boolean> isValidAsync() {
		if (this.state != State.VALID) {
			return CompletableFuture.completedFuture(false);
		}
		if (!this.pauses.mayHavePausedSince(this.confirmedAt)) {
			return CompletableFuture.completedFuture(true);
		}
		long started = this.port.nanoTime();
		return within(nodeStat())
			.handle((stat, ex) -> (ex != null) ? inDoubtAfterPause() : validAfter(confirmed(stat, started)));
	}

	/**
	 * Return what {@link #isValid()} would answer without asking the server: {@code false} also
	 * when it would ask (after a possible pause). For the deterministic simulator's checks.
	 */
	boolean isTrustedWithoutAsking() {
		return this.state == State.VALID && !this.pauses.mayHavePausedSince(this.confirmedAt);
	}

	/**
	 * Return whether the lock is held as far as this process knows, without asking the server.
	 */
	boolean isValidLocally() {
		return this.state == State.VALID;
	}

	/**
	 * Return the token of the node's first grant: its grant zxid with the local count 0.
	 */
	long firstToken() {
		return FencingTokenSpace.token(this.node.grantZxid(), 0);
	}

	/**
	 * Return a fencing token greater than every token granted on the key so far: the node's
	 * latest zxid with the next local count. Once the counts of a zxid are used up, a write to
	 * our own node gives a later zxid; that write is sent in the background while a quarter of
	 * the counts is left, so a busy node seldom waits for it (see {@link FencingTokenSpace} and
	 * {@code docs/lock-core.md}).
	 * @throws LockLostException if the node is not certainly held, or a write it needs fails
	 */
	long newToken() {
		if (!isValid()) {
			throw new LockLostException(this.key, this.reason);
		}
		long token = nextLocalToken();
		if (token != 0) {
			return token;
		}
		try {
			return await(takeToken());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockLostException(this.key, "interrupted while taking a fencing token");
		}
		catch (Exception ex) {
			throw tokenFailure(ex);
		}
	}

	/**
	 * Wait, on the caller's thread, for the token another grant of the same batch asked for.
	 * @throws LockLostException if the node is not certainly held, or the write it needs fails
	 */
	long awaitToken(CompletableFuture<Long> pending) {
		try {
			return this.port.await(pending, Long.MAX_VALUE);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockLostException(this.key, "interrupted while taking a fencing token");
		}
		catch (ExecutionException ex) {
			throw tokenFailure(ex.getCause());
		}
		catch (TimeoutException ex) {
			throw tokenFailure(ex);
		}
	}

	/**
	 * Take a new fencing token like {@link #newToken()}, without blocking.
	 */
	CompletableFuture<Long> newTokenAsync() {
		return isValidAsync().thenCompose((valid) -> {
			if (!valid) {
				return CompletableFuture.failedFuture(new LockLostException(this.key, this.reason));
			}
			return takeToken().handle((token, ex) -> {
				if (ex != null) {
					throw tokenFailure((ex instanceof CompletionException) ? ex.getCause() : ex);
				}
				return token;
			});
		});
	}

	/**
	 * Return the next token: at once while the latest zxid has counts left, else once the write
	 * that gives a new zxid has been answered.
	 */
	private CompletableFuture<Long> takeToken() {
		CompletableFuture<NodeStat> write;
		lockTokens();
		try {
			long token = nextLocalToken();
			if (token != 0) {
				return CompletableFuture.completedFuture(token);
			}
			write = writeForTokens();
		}
		finally {
			this.tokenLock.unlock();
		}
		return write.thenCompose((stat) -> takeToken());
	}

	/**
	 * Return the next token of the latest zxid, or 0 if its counts are used up. Sends the write
	 * for the next zxid when few counts are left.
	 */
	private long nextLocalToken() {
		lockTokens();
		try {
			if (this.tokenCount >= this.tokensPerWrite) {
				return 0;
			}
			this.tokenCount++;
			long token = FencingTokenSpace.token(this.tokenZxid, this.tokenCount);
			if (this.tokensPerWrite - this.tokenCount <= Math.max(1, this.tokensPerWrite / 4)) {
				// Its answer may be handled at once, on this thread (the lock is reentrant): the
				// token is taken before.
				writeForTokens();
			}
			return token;
		}
		finally {
			this.tokenLock.unlock();
		}
	}

	/**
	 * Return the write in flight that will give the node a new zxid, sending it if there is
	 * none. Called with the token lock held.
	 */
	private CompletableFuture<NodeStat> writeForTokens() {
		CompletableFuture<NodeStat> write = this.tokenWrite;
		if (write == null || write.isDone()) {
			long sentAt = this.port.nanoTime();
			write = within(write()).whenComplete((stat, ex) -> tokenWritten(stat, ex, sentAt));
			this.tokenWrite = write;
		}
		return write;
	}

	/**
	 * The write for a new zxid was answered: its {@code mzxid} is later than every zxid of the
	 * tokens given on the node before it was sent (see {@code docs/lock-core.md}), so it starts
	 * the counts again.
	 */
	private void tokenWritten(@Nullable NodeStat stat, @Nullable Throwable ex, long sentAt) {
		if (ex != null) {
			Throwable cause = (ex instanceof CompletionException) ? ex.getCause() : ex;
			if (cause instanceof KeeperException.NoNodeException) {
				lose("its node is gone from ZooKeeper", false);
			}
			return;
		}
		lockTokens();
		try {
			if (stat != null && stat.mzxid() > this.tokenZxid) {
				this.tokenZxid = stat.mzxid();
				this.tokenCount = -1;
			}
			confirmedAsOf(sentAt);
		}
		finally {
			this.tokenLock.unlock();
		}
	}

	private LockLostException tokenFailure(Throwable ex) {
		if (ex instanceof LockLostException lost) {
			return lost;
		}
		if (ex instanceof KeeperException.NoNodeException) {
			// tokenWritten lost the node before the failure got here.
			return new LockLostException(this.key, this.reason);
		}
		return new LockLostException(this.key, "ZooKeeper could not give a fencing token: " + ex);
	}

	/**
	 * Take the token lock (a name of its own, so that BlockHound is told only about this wait:
	 * a few instructions under it, never a request).
	 */
	private void lockTokens() {
		this.tokenLock.lock();
	}

	void suspend() {
		boolean changed;
		synchronized (this) {
			changed = (this.state == State.VALID);
			if (changed) {
				this.state = State.IN_DOUBT;
				this.reason = "the connection to ZooKeeper was suspended and has not been restored";
			}
		}
		if (changed) {
			this.onChange.run();
		}
	}

	void reconnected(long sessionId) {
		boolean changed = false;
		synchronized (this) {
			if (this.state == State.IN_DOUBT && sessionId == this.node.sessionId()) {
				this.state = State.VALID;
				this.reason = "";
				this.doubtAfterPause = false;
				changed = true;
			}
		}
		if (this.state == State.IN_DOUBT) {
			lose("the connection came back with a new ZooKeeper session", false);
		}
		else if (changed) {
			this.onChange.run();
		}
	}

	void lose(String why, boolean interrupt) {
		synchronized (this) {
			if (this.state == State.LOST) {
				return;
			}
			this.state = State.LOST;
			this.reason = why;
		}
		try {
			for (Hold hold : this.holds.snapshot()) {
				logger.error("Lock on key '" + this.key + "' held by thread '" + hold.holderName() + "' was lost: " + why);
				if (interrupt) {
					hold.interruptHolder();
				}
				tellLost(hold);
			}
		}
		finally {
			this.onChange.run();
		}
	}

	/**
	 * Tell the listener of one lost hold: what it throws is logged, and every other hold is told
	 * all the same.
	 */
	private void tellLost(Hold hold) {
		try {
			this.listener.lockLost(this.key, hold.mode());
		}
		catch (RuntimeException | Error ex) {
			logger.error("The lock-lost listener failed for key '" + this.key + "'", ex);
		}
	}

	private boolean confirm() {
		long started = this.port.nanoTime();
		try {
			return validAfter(confirmed(await(nodeStat()), started));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return inDoubtAfterPause();
		}
		catch (Exception ex) {
			return inDoubtAfterPause();
		}
	}

	private boolean confirmed(@Nullable NodeStat stat, long started) {
		if (stat == null || stat.ephemeralOwner() != this.node.sessionId()) {
			lose("its node is gone from ZooKeeper (the session expired during a process pause)", false);
			return false;
		}
		confirmedAsOf(started);
		return true;
	}

	/**
	 * The answer to a validity check after a pause: the node was there, in our session, when
	 * the server answered; but the connection may have been suspended, or the session lost,
	 * while the answer was on its way. Then the node is in doubt or lost here, and the answer
	 * does not make the grant valid.
	 */
	private boolean validAfter(boolean confirmed) {
		return confirmed && this.state == State.VALID;
	}

	/**
	 * The server could not confirm the node after a pause (no answer in time, or the asking
	 * thread was interrupted): the node is in doubt. No connection event may ever come to end
	 * the doubt, so the key is told, and the node is confirmed again in the background until
	 * the server answers: valid again, or lost.
	 */
	private boolean inDoubtAfterPause() {
		boolean changed;
		synchronized (this) {
			changed = (this.state == State.VALID);
			if (changed) {
				this.state = State.IN_DOUBT;
				this.reason = "the process paused and ZooKeeper could not confirm the lock afterwards";
				this.doubtAfterPause = true;
			}
		}
		if (changed) {
			this.onChange.run();
			this.port.schedule(this::confirmAgain, RECONFIRM_NANOS);
		}
		return false;
	}

	private void confirmAgain() {
		if (this.state != State.IN_DOUBT || !this.doubtAfterPause) {
			return;
		}
		long started = this.port.nanoTime();
		within(nodeStat()).whenComplete((stat, ex) -> {
			if (ex != null) {
				this.port.schedule(this::confirmAgain, RECONFIRM_NANOS);
				return;
			}
			if (!confirmed(stat, started)) {
				return;
			}
			boolean changed;
			synchronized (this) {
				changed = (this.state == State.IN_DOUBT && this.doubtAfterPause);
				if (changed) {
					this.state = State.VALID;
					this.reason = "";
					this.doubtAfterPause = false;
				}
			}
			if (changed) {
				this.onChange.run();
			}
		});
	}

	/**
	 * The node is known to be ours as of the given instant (when the request that showed it was
	 * sent); an older instant changes nothing.
	 */
	private void confirmedAsOf(long sentAt) {
		if (sentAt - this.confirmedAt > 0) {
			this.confirmedAt = sentAt;
		}
	}

	/**
	 * Write our own node: its new {@code mzxid} is later than every change seen before.
	 */
	private CompletableFuture<NodeStat> write() {
		CompletableFuture<NodeStat> answer = new CompletableFuture<>();
		this.port.touch(this.node.path(), this.data, (rc, stat) -> {
			if (rc == Code.OK && stat != null) {
				answer.complete(stat);
			}
			else {
				answer.completeExceptionally(KeeperException.create(rc, this.node.path()));
			}
		});
		return answer;
	}

	/**
	 * Ask the ensemble's leader for our node's stat: {@code null} if it is gone.
	 */
	private CompletableFuture<@Nullable NodeStat> nodeStat() {
		CompletableFuture<@Nullable NodeStat> answer = new CompletableFuture<>();
		this.port.syncAndRead(this.node.path(), (rc, stat) -> {
			if (rc == Code.OK) {
				answer.complete(stat);
			}
			else if (rc == Code.NONODE) {
				answer.complete(null);
			}
			else {
				answer.completeExceptionally(KeeperException.create(rc, this.node.path()));
			}
		});
		return answer;
	}

	/**
	 * Return the answer, failed with a {@link TimeoutException} if it has not come within the
	 * confirmation timeout (on the port's clock).
	 */
	private <T> CompletableFuture<T> within(CompletableFuture<T> answer) {
		ZooKeeperPort.Timer timer = this.port.schedule(() -> answer.completeExceptionally(new TimeoutException()),
				CONFIRM_TIMEOUT.toNanos());
		answer.whenComplete((value, ex) -> timer.cancel());
		return answer;
	}

	private <T> T await(CompletableFuture<T> answer) throws Exception {
		try {
			return this.port.await(answer, CONFIRM_TIMEOUT.toNanos());
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
	}

}
