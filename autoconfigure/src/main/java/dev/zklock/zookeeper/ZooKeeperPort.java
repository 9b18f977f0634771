package dev.zklock.zookeeper;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

/**
 * Everything the lock core and the elections ask of the world: the ZooKeeper requests they make,
 * their replies and watches, the client's connection and session, time, timers and the thread
 * that runs deferred work. Production uses {@link CuratorPort}; the deterministic simulator of
 * the tests implements the same port, so that the code above it runs unchanged under simulated
 * faults. Every request is
 * sent in the background: its reply, and every watch, is delivered later to a callback that must
 * be quick (in production on ZooKeeper's event thread), but for the two transactions that a
 * thread waiting for their answer sends itself ({@link #createKeyAndLockNodeWaiting},
 * {@link #deleteLockAndKeyNodeWaiting}), whose reply reaches the same callback on that thread.
 * Requests of one session are served in the order they were sent.
 */
public interface ZooKeeperPort {

	/**
	 * Create an ephemeral sequential lock node in protected mode (a create whose reply was lost
	 * is found again by its id), retried by the client when the connection drops.
	 * @param path the node's path without the protected prefix and the sequence
	 * @param data the node's data (a lock node's owner, an election node's participant id), passed through as it is
	 * @param reply told the full path and the node's owner
	 */
	void createLockNode(String path, byte[] data, Reply<Created> reply);

	/**
	 * Create, in one transaction, the key node (a container) and a lock node under it (ephemeral
	 * sequential, named by the caller with its protected id).
	 * @param keyPath the key node
	 * @param lockNodePath the lock node's path without the sequence
	 * @param data the lock node's data (a lock node's owner, an election node's participant id), passed through as it is
	 * @param reply told the lock node's full path and the transaction's zxid
	 */
	void createKeyAndLockNode(String keyPath, String lockNodePath, byte[] data, Reply<KeyCreated> reply);

	/**
	 * {@link #createKeyAndLockNode} for a thread that waits for the answer anyway (a call's first
	 * request on a free key): the reply is told on the calling thread before this returns, with no
	 * thread between the reply and its caller. It comes by {@code answerBy} at the latest: a reply
	 * that has not come by then is told as {@code OPERATIONTIMEOUT}, and the transaction may still
	 * be applied afterwards, as one whose reply was lost with the connection may (a read sent
	 * after this returns sees it). An interrupt of the waiting thread ends the wait the same way,
	 * and the thread stays interrupted. The calling thread must hold no lock that a reply or a
	 * watch needs.
	 * @param answerBy the latest time of the answer, on {@link #nanoTime()}'s clock;
	 * {@link Long#MAX_VALUE} to wait until the reply, or until the client gives it up with the
	 * connection
	 */
	default void createKeyAndLockNodeWaiting(String keyPath, String lockNodePath, byte[] data, long answerBy,
			Reply<KeyCreated> reply) {
		sendAndWait(this, (answer) -> createKeyAndLockNode(keyPath, lockNodePath, data, answer), answerBy, reply);
	}

	/**
	 * Create an ephemeral sequential node whose name carries the caller's own protected id, and
	 * its missing parents as containers. The client retries it when the connection drops, so
	 * that it may be applied more than once, or applied with its reply lost: the caller finds
	 * every node of the create by that id.
	 * @param path the node's path without the sequence, its name starting with the id
	 * @param data the node's data, passed through as it is
	 * @param reply told the full path and the node's owner
	 */
	void createSequentialNode(String path, byte[] data, Reply<Created> reply);

	/**
	 * Create a container node and its missing parents, as containers.
	 */
	void createContainers(String path, Reply<Void> reply);

	/**
	 * Read a node's children and its {@code pzxid}.
	 * @param watch run once when the children change, or {@code null} for no watch
	 */
	void getChildren(String path, @Nullable Runnable watch, Reply<Children> reply);

	/**
	 * Read whether a node exists ({@code NONODE} if not).
	 * @param watch run once when the node changes or goes, or {@code null} for no watch
	 */
	void exists(String path, @Nullable Runnable watch, Reply<NodeStat> reply);

	/**
	 * Read a node's data ({@code NONODE} if it is gone).
	 */
	void getData(String path, Reply<byte[]> reply);

	/**
	 * Remove every watch this client left on a node, on the client at once (none of them runs
	 * afterwards) and on the server when it can be reached: for a part that no longer needs
	 * them, so that none stays behind it.
	 */
	void removeWatches(String path);

	/**
	 * Delete a node, guaranteed: retried after a reconnect for as long as the session lives.
	 * @param reply told when the server answered, or {@code null}
	 */
	void delete(String path, @Nullable Reply<Void> reply);

	/**
	 * Delete a lock node and, in the same transaction, its key node: the release of the last
	 * node of a key, so that the next use of the key is again a first use (one transaction, no
	 * read). The transaction fails whole, deleting nothing, when another node is under the key
	 * ({@code NOTEMPTY}) or the lock node is gone ({@code NONODE}). Not guaranteed: the client
	 * may send it again after a reconnect (a retry of an applied transaction answers
	 * {@code NONODE}), then gives up with the failure's code; a caller deletes the lock node
	 * alone, guaranteed, when it is answered anything but {@code OK}.
	 * @param lockNodePath the lock node's full path
	 * @param keyPath its parent, the key node
	 * @param reply told the transaction's code
	 */
	void deleteLockAndKeyNode(String lockNodePath, String keyPath, Reply<Void> reply);

	/**
	 * {@link #deleteLockAndKeyNode} for a thread that waits for the answer anyway (a call's
	 * release of a key nobody else uses), answered on the calling thread by {@code answerBy}, as
	 * {@link #createKeyAndLockNodeWaiting} is.
	 */
	default void deleteLockAndKeyNodeWaiting(String lockNodePath, String keyPath, long answerBy, Reply<Void> reply) {
		sendAndWait(this, (answer) -> deleteLockAndKeyNode(lockNodePath, keyPath, answer), answerBy, reply);
	}

	/**
	 * Send a background request and wait for its reply on the calling thread with the port's
	 * {@link #await}, at most until {@code answerBy}, then tell it there: the waiting methods'
	 * answer ({@link #createKeyAndLockNodeWaiting}) made of a background request. A request whose
	 * time is up when it is sent is not waited for.
	 * @param port where the request goes and the thread waits
	 * @param request sends the request, with the reply to tell
	 * @param answerBy the latest time of the answer, on the port's clock
	 * @param reply told the reply, or {@code OPERATIONTIMEOUT}
	 */
	static <T> void sendAndWait(ZooKeeperPort port, Consumer<Reply<T>> request, long answerBy, Reply<T> reply) {
		record Answer<T>(Code code, @Nullable T value) {
		}
		CompletableFuture<Answer<T>> answer = new CompletableFuture<>();
		request.accept((code, value) -> answer.complete(new Answer<>(code, value)));
		Answer<T> timedOut = new Answer<>(Code.OPERATIONTIMEOUT, null);
		Answer<T> got;
		long nanos = (answerBy == Long.MAX_VALUE) ? Long.MAX_VALUE : answerBy - port.nanoTime();
		try {
			got = (nanos > 0 || answer.isDone()) ? port.await(answer, Math.max(0, nanos)) : timedOut;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			got = timedOut;
		}
		catch (ExecutionException | TimeoutException ex) {
			got = timedOut;
		}
		reply.done(got.code(), got.value());
	}

	/**
	 * Write a node's data (the data it was created with, so that it still names its owner): the
	 * new {@code mzxid} is a zxid later than every change this client has seen.
	 */
	void touch(String path, byte[] data, Reply<NodeStat> reply);

	/**
	 * Ask the leader of the ensemble, not just the server the client is connected to, whether a
	 * node exists: a sync, then a read ({@code NONODE} if not).
	 */
	void syncAndRead(String path, Reply<NodeStat> reply);

	/**
	 * Return the client's current session id, 0 when it has none.
	 */
	long sessionId();

	/**
	 * Return whether the client is connected now.
	 */
	boolean isConnected();

	/**
	 * Wait, on the calling thread, until the client is connected.
	 * @param nanos the longest wait; negative to wait forever
	 * @return whether it is connected
	 */
	boolean awaitConnected(long nanos) throws InterruptedException;

	/**
	 * Wait, on the calling thread, for an answer: the one place where a blocking call of the
	 * lock core waits (for its grant, a confirmation, a fencing token's write, its release's
	 * delete). Waits as {@link CompletableFuture#get(long, TimeUnit)} does; the deterministic
	 * simulator's port parks a simulated thread instead, and wakes it when the answer comes or
	 * its simulated time runs out.
	 * @param answer what to wait for
	 * @param nanos the longest wait, on {@link #nanoTime()}'s clock; {@link Long#MAX_VALUE} to
	 * wait forever
	 * @return the answer's value
	 * @throws InterruptedException if the thread is interrupted before the answer comes
	 * @throws ExecutionException if the answer is a failure
	 * @throws TimeoutException if no answer came in time
	 */
	default <T> T await(CompletableFuture<T> answer, long nanos)
			throws InterruptedException, ExecutionException, TimeoutException {
		return (nanos == Long.MAX_VALUE) ? answer.get() : answer.get(nanos, TimeUnit.NANOSECONDS);
	}

	/**
	 * Return where the client connects, for messages.
	 */
	String connectString();

	/**
	 * Follow the connection and session.
	 */
	void addConnectionListener(ConnectionListener listener);

	void removeConnectionListener(ConnectionListener listener);

	/**
	 * Return the monotonic time, in nanoseconds.
	 */
	long nanoTime();

	/**
	 * Run a task after a delay, on the port's own thread.
	 */
	Timer schedule(Runnable task, long nanos);

	/**
	 * Run a task soon, on the port's own thread, never on the caller's.
	 */
	void execute(Runnable task);

	/**
	 * Return a new id for a protected-mode name, unique among this client's creates.
	 */
	String newProtectedId();

	/**
	 * A request's reply: a result code, and a value when the code is {@code OK}.
	 */
	@FunctionalInterface
	interface Reply<T> {

		void done(Code code, @Nullable T value);

	}

	/**
	 * What connection changes the core acts on.
	 */
	enum Connection {

		/** Connected for the first time. */
		CONNECTED,
		/** Connection lost; the session may survive. */
		SUSPENDED,
		/** Connection back, with the same session or a new one. */
		RECONNECTED,
		/** The session expired. */
		LOST

	}

	@FunctionalInterface
	interface ConnectionListener {

		void changed(Connection state);

	}

	/**
	 * A scheduled task, which may be cancelled.
	 */
	@FunctionalInterface
	interface Timer {

		void cancel();

	}

	/**
	 * A created lock node.
	 * @param path its full path
	 * @param owner its {@code ephemeralOwner} (0 when the reply did not say)
	 */
	record Created(String path, long owner) {
	}

	/**
	 * A key node created with our lock node.
	 * @param lockNodePath the lock node's full path
	 * @param zxid the transaction's zxid (the key node's {@code czxid}), 0 if the server did not
	 * say
	 */
	record KeyCreated(String lockNodePath, long zxid) {
	}

	/**
	 * A node's children.
	 * @param names their names
	 * @param pzxid the zxid of the last child created or deleted
	 */
	record Children(List<String> names, long pzxid) {
	}

	/**
	 * What the core reads of a node's stat.
	 */
	record NodeStat(long czxid, long mzxid, long pzxid, long ephemeralOwner) {
	}

}
