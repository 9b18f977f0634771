package dev.zklock.lock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;
import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * One key as this instance uses it: a first-come-first-served queue of local calls, the local
 * holders, and at most one lock node, which belongs to the instance and passes from call to call
 * without ZooKeeper (local handoff), or stays for a while after the last call (a kept lock). All
 * state changes happen under one short lock that is never held across a ZooKeeper request;
 * requests and completions are run after it is released, in the order they were decided. The
 * rules and why they keep the lock's promises: {@code docs/lock-core.md}.
 */
final class KeyLock {

	private final String key;

	private final String keyPath;

	private final KeyLocks locks;

	private final ReentrantLock mutex = new ReentrantLock();

	// Sized for the uncontended call, which makes a key lock each time: grown when contended.
	private final List<Runnable> deferred = new ArrayList<>(2);

	private final ArrayDeque<LocalRequest> queue = new ArrayDeque<>(2);

	private @Nullable ActiveLock node;

	private @Nullable NodeAcquisition acquiring;

	private int exclusiveHolders;

	private int sharedHolders;

	private @Nullable GrantBatch batch;

	private int grantsOnNode;

	private boolean watching;

	private final HandoffBound bound;

	private final Keeping keeping;


	private @Nullable CompletableFuture<Void> lastDelete;

	/**
	 * The call whose thread is queuing it now, under the lock.
	 */
	private @Nullable LocalRequest enqueuing;

	/**
	 * Until when the thread releasing now, under the lock, waits for the delete; 0 if it does
	 * not.
	 */
	private long releaseAnswerBy;

	private boolean retired;

	KeyLock(String key, String keyPath, KeyLocks locks) {
		this.key = key;
		this.keyPath = keyPath;
		this.locks = locks;
		this.bound = new HandoffBound(locks.settings());
		this.keeping = new Keeping(locks);
	}

	String key() {
		return this.key;
	}

	ZooKeeperPort port() {
		return this.locks.port();
	}

	/**
	 * Queue a local call.
	 * @return {@code false} if this object no longer serves the key (ask the registry again)
	 */
	boolean enqueue(LocalRequest request) {
		lock();
		try {
			if (this.retired) {
				return false;
			}
			this.queue.add(request);
			this.enqueuing = request;
			try {
				dispatch();
			}
			finally {
				this.enqueuing = null;
			}
			return true;
		}
		finally {
			unlock();
		}
	}

	/**
	 * Take a waiting call out of the queue, when it gives up.
	 * @return {@code true} if it was still waiting; {@code false} if it was already answered (its
	 * result then says how)
	 */
	boolean cancel(LocalRequest request) {
		lock();
		try {
			boolean removed = this.queue.remove(request);
			if (removed) {
				dispatch();
			}
			return removed;
		}
		finally {
			unlock();
		}
	}

	/**
	 * Return whether the key has no node and no request for one: a call that will not wait may
	 * first read whether another instance visibly holds it.
	 */
	boolean isIdle() {
		lock();
		try {
			return this.node == null && this.acquiring == null;
		}
		finally {
			unlock();
		}
	}

	/**
	 * End a local grant.
	 * @return the deletion of the node if this release deleted it, to wait for; else {@code null}
	 */
	@Nullable CompletableFuture<Void> release(Hold hold) {
		return release(hold, 0);
	}

	/**
	 * End a local grant, on a thread that waits for the delete it may decide.
	 * @param answerBy until when the thread waits for the delete, on the port's clock (0 if it
	 * does not): a release that takes the key node with the last node then sends its transaction
	 * and takes the reply on this thread, before this returns
	 * @return the deletion of the node if this release deleted it, to wait for; else {@code null}
	 */
	@Nullable CompletableFuture<Void> release(Hold hold, long answerBy) {
		lock();
		this.releaseAnswerBy = answerBy;
		try {
			hold.released();
			hold.lock().removed(hold);
			this.lastDelete = null;
			if (hold.lock() == this.node) {
				if (hold.mode() == LockMode.EXCLUSIVE) {
					this.exclusiveHolders--;
				}
				else {
					this.sharedHolders--;
				}
				if (holders() == 0) {
					this.batch = null;
				}
			}
			dispatch();
			// The caller waits for the delete only when its release frees the key: with local
			// calls still waiting, the node went for fairness and a new one is on its way.
			return this.queue.isEmpty() ? this.lastDelete : null;
		}
		finally {
			this.releaseAnswerBy = 0;
			unlock();
		}
	}

	/**
	 * Release a kept node and give up any request, at shutdown.
	 */
	void close() {
		lock();
		try {
			for (LocalRequest request : this.queue) {
				this.deferred.add(() -> request.result()
					.completeExceptionally(new IllegalStateException("The lock template was closed")));
			}
			this.queue.clear();
			if (this.node != null && holders() == 0) {
				releaseNode();
			}
			dispatch();
		}
		finally {
			unlock();
		}
	}

	/**
	 * Return a view of the key for operations tools: kept, remote waiters, local waiters.
	 */
	@Nullable KeptLockInfo keptInfo() {
		lock();
		try {
			ActiveLock node = this.node;
			return (this.keeping.isKept() && node != null) ? new KeptLockInfo(this.key, node.mode(), node.since(),
					node.state().name()) : null;
		}
		finally {
			unlock();
		}
	}

	boolean othersWait() {
		return this.bound.othersWait();
	}

	@Override
	public String toString() {
		lock();
		try {
			ActiveLock current = this.node;
			return "KeyLock[" + this.key + ", node=" + ((current != null)
					? LockNodes.name(current.node().path()) + " " + current.state() : "none") + ", acquiring="
					+ this.acquiring + ", queue=" + this.queue.size() + ", holders=" + holders() + ", kept=" + this.keeping.isKept()
					+ ", othersWait=" + this.bound.othersWait() + "]";
		}
		finally {
			unlock();
		}
	}

	// Decisions, always with the lock held.

	private void dispatch() {
		ActiveLock current = this.node;
		if (current != null && current.state() == ActiveLock.State.LOST) {
			dropNode();
			current = null;
		}
		if (current != null && current.isValidLocally()) {
			grantFromQueue(current);
		}
		if (current != null && holders() == 0) {
			settleIdleNode(current);
		}
		if (this.node == null && this.acquiring == null && !this.queue.isEmpty()) {
			startAcquisition(this.queue.peek());
		}
		else if (this.node == null && this.acquiring != null && this.queue.isEmpty()) {
			NodeAcquisition abandoned = this.acquiring;
			this.acquiring = null;
			this.deferred.add(abandoned::abandon);
		}
		if (this.node == null && this.acquiring == null && this.queue.isEmpty() && holders() == 0 && !this.retired) {
			this.retired = true;
			this.locks.retire(this);
		}
	}

	private void grantFromQueue(ActiveLock current) {
		while (!this.queue.isEmpty()) {
			LocalRequest next = this.queue.peek();
			if (current.mode() == LockMode.SHARED && next.mode() == LockMode.EXCLUSIVE) {
				break;
			}
			boolean conflict = (next.mode() == LockMode.EXCLUSIVE) ? holders() > 0 : this.exclusiveHolders > 0;
			if (conflict || (this.grantsOnNode > 0 && !mayGrantAgain())) {
				break;
			}
			this.queue.poll();
			if (next.hasGivenUp()) {
				// Its wait ended before the key was free: a timer that runs late does not lengthen
				// it. The call times out as its timer would have timed it out.
				this.deferred.add(() -> next.result().complete(null));
				continue;
			}
			if (holders() == 0) {
				this.batch = (this.grantsOnNode == 0) ? GrantBatch.first() : GrantBatch.next(current);
			}
			boolean reuse = this.keeping.stop();
			this.grantsOnNode++;
			this.bound.granted();
			if (next.mode() == LockMode.EXCLUSIVE) {
				this.exclusiveHolders++;
			}
			else {
				this.sharedHolders++;
			}
			Hold hold = new Hold(current, next.mode(), this.batch, true, next.thread()).madeBy(this, reuse);
			current.added(hold);
			this.deferred.add(() -> next.result().complete(hold));
			if (this.grantsOnNode > 1) {
				this.locks.handedOff();
			}
		}
		if (!this.queue.isEmpty()) {
			this.queue.forEach(LocalRequest::waitsForOthers);
			watchChildren(current);
			failCallsThatWillNotWait();
		}
		else if (this.grantsOnNode > 1) {
			// The node outlives a call: shared grants that overlap keep a shared node alive
			// without any local call waiting. Watch the key so that a remote writer is seen
			// and the handoff bound applies to this node too.
			watchChildren(current);
		}
	}

	private boolean mayGrantAgain() {
		return this.bound.mayGrantAgain(this.locks.port().nanoTime());
	}

	private void settleIdleNode(ActiveLock current) {
		if (!this.queue.isEmpty()) {
			if (current.isValidLocally()) {
				// Waiting calls this node cannot serve (bound spent, or a shared node and an
				// exclusive call): give the key up; a new node is requested behind the delete.
				releaseNode();
			}
			return;
		}
		if (this.keeping.isKept()) {
			return;
		}
		if (current.isValidLocally() && !this.bound.othersWait() && this.locks.settings().keeps()
				&& this.locks.reserveKept()) {
			keep(current);
		}
		else {
			releaseIdleNode(current);
		}
	}

	private void keep(ActiveLock current) {
		this.keeping.start(() -> idleTimeOver(current));
		watchChildren(current);
	}

	/**
	 * Give the node up: the caller of the release that decided it waits for its deletion.
	 */
	private void releaseNode() {
		deleteNode(true, false);
	}

	/**
	 * Give up a node no local call needs any more. When nothing tells of another node under the
	 * key (the node is valid, no other instance was seen), the key node goes with it, so that
	 * the next use of the key is a first use again, one transaction and no read. The transaction
	 * deletes nothing if another instance's node is under the key after all; the node is then
	 * deleted alone.
	 */
	private void releaseIdleNode(ActiveLock current) {
		deleteNode(true, current.isValidLocally() && !this.bound.othersWait());
	}

	/**
	 * Forget a node that was lost. It usually went with its session, but not always: a request
	 * retried after the session expired may have created it in the new session before Curator
	 * told of the loss. Delete it anyway (a node already gone costs one request).
	 */
	private void dropNode() {
		deleteNode(false, false);
	}

	private void deleteNode(boolean awaited, boolean withKeyNode) {
		ActiveLock gone = this.node;
		if (gone == null) {
			return;
		}
		this.keeping.stop();
		forgetNode();
		this.locks.guard().remove(gone);
		CompletableFuture<Void> deleted = new CompletableFuture<>();
		if (awaited) {
			this.lastDelete = deleted;
		}
		String path = gone.node().path();
		ZooKeeperPort port = this.locks.port();
		if (!withKeyNode) {
			this.deferred.add(() -> port.delete(path, (rc, nothing) -> deleted.complete(null)));
			return;
		}
		KeyNodes keyNodes = this.locks.keyNodes();
		ZooKeeperPort.Reply<Void> reply = (rc, nothing) -> {
			if (rc == Code.OK) {
				keyNodes.forget(this.keyPath);
				deleted.complete(null);
			}
			else {
				// Another node is under the key, or the transaction's outcome is unknown (a
				// retry of an applied one answers NONODE, a thread that stopped waiting for the
				// reply OPERATIONTIMEOUT): delete ours alone, guaranteed.
				port.delete(path, (again, none) -> deleted.complete(null));
			}
		};
		long answerBy = awaited ? this.releaseAnswerBy : 0;
		if (answerBy != 0) {
			// The releasing thread waits for this answer: it sends the transaction and takes
			// the reply itself, after this lock is released (the deferred work runs on it).
			this.deferred.add(() -> port.deleteLockAndKeyNodeWaiting(path, this.keyPath, answerBy, reply));
		}
		else {
			this.deferred.add(() -> port.deleteLockAndKeyNode(path, this.keyPath, reply));
		}
	}

	private void forgetNode() {
		this.node = null;
		this.exclusiveHolders = 0;
		this.sharedHolders = 0;
		this.batch = null;
		this.grantsOnNode = 0;
		this.watching = false;
		this.bound.reset();
	}

	private void startAcquisition(LocalRequest head) {
		LockMode mode = head.mode();
		NodeAcquisition[] self = new NodeAcquisition[1];
		NodeAcquisition acquisition = new NodeAcquisition(this.locks.port(), this.keyPath, mode, this.locks.settings().nodeNames(),
				this.locks.keyNodes(), this.locks.stalls(), new NodeAcquisition.Outcome() {

					@Override
					public void granted(LockNode granted) {
						nodeGranted(self[0], granted);
					}

					@Override
					public void mustWait() {
						nodeMustWait(self[0]);
					}

				});
		acquisition.ownedBy(this.locks.owners().data(head.call(), mode, head.since()));
		self[0] = acquisition;
		this.acquiring = acquisition;
		if (head == this.enqueuing && head.thread() == Thread.currentThread()) {
			// The call's own thread, which waits for the answer next: it sends the first request
			// after this lock is released, and may take its reply itself.
			long answerBy = head.answerBy(this.locks.port().nanoTime());
			this.deferred.add(() -> acquisition.start(answerBy));
		}
		else {
			this.deferred.add(acquisition::start);
		}
	}

	private void failCallsThatWillNotWait() {
		for (Iterator<LocalRequest> iterator = this.queue.iterator(); iterator.hasNext();) {
			LocalRequest request = iterator.next();
			if (request.tryOnce()) {
				iterator.remove();
				this.deferred.add(() -> request.result().complete(null));
			}
		}
	}

	private void watchChildren(ActiveLock current) {
		if (this.watching) {
			return;
		}
		this.watching = true;
		this.deferred.add(() -> this.locks.port().getChildren(this.keyPath, () -> childrenChanged(current), (rc, read) -> {
			if (rc == Code.OK && read != null) {
				childrenSeen(current, read.names());
			}
			else {
				watchFailed(current);
			}
		}));
	}

	private int holders() {
		return this.exclusiveHolders + this.sharedHolders;
	}

	/**
	 * Return the node the key's request waits with, {@code null} if there is none.
	 */
	@Nullable String waitingNode() {
		NodeAcquisition current = acquiring();
		return (current != null) ? current.waitingNode() : null;
	}

	/**
	 * An operator released some nodes of this instance: a node this key is still acquiring is
	 * given up and asked for again.
	 */
	void released(Collection<String> paths) {
		NodeAcquisition current = acquiring();
		if (current != null) {
			current.released(paths);
		}
	}

	/**
	 * Return the key's request, read under the key's lock; the caller calls it outside the
	 * lock, as the request takes its own.
	 */
	private @Nullable NodeAcquisition acquiring() {
		lock();
		try {
			return this.acquiring;
		}
		finally {
			unlock();
		}
	}

	// Events, each taking the lock.

	private void nodeGranted(NodeAcquisition acquisition, LockNode granted) {
		lock();
		try {
			if (acquisition != this.acquiring) {
				this.deferred.add(() -> this.locks.port().delete(granted.path(), null));
				return;
			}
			this.acquiring = null;
			ActiveLock fresh = this.locks.activate(this.key, granted, () -> this.locks.later(this::redispatch))
				.ownedBy(acquisition.data());
			forgetNode();
			this.node = fresh;
			dispatch();
		}
		finally {
			unlock();
		}
	}

	private void nodeMustWait(NodeAcquisition acquisition) {
		lock();
		try {
			if (acquisition == this.acquiring) {
				this.queue.forEach(LocalRequest::waitsForOthers);
				failCallsThatWillNotWait();
				dispatch();
			}
		}
		finally {
			unlock();
		}
	}

	private void redispatch() {
		lock();
		try {
			dispatch();
		}
		finally {
			unlock();
		}
	}

	private void idleTimeOver(ActiveLock current) {
		lock();
		try {
			if (this.node == current && this.keeping.isKept()) {
				releaseIdleNode(current);
				dispatch();
			}
		}
		finally {
			unlock();
		}
	}

	private void childrenChanged(ActiveLock current) {
		lock();
		try {
			if (this.node != current) {
				return;
			}
			this.watching = false;
			if (this.keeping.isKept()) {
				// Someone else touched the key while we keep it idle: most likely another
				// instance asks for it. Give it up at once.
				this.locks.releasedOnRequest();
				releaseNode();
				dispatch();
			}
			else {
				watchChildren(current);
			}
		}
		finally {
			unlock();
		}
	}

	private void childrenSeen(ActiveLock current, List<String> children) {
		lock();
		try {
			if (this.node != current) {
				return;
			}
			List<String> sorted = LockNodes.sorted(children);
			int ours = sorted.indexOf(LockNodes.name(current.node().path()));
			if (ours < 0) {
				this.deferred.add(() -> current.lose("its node is gone from ZooKeeper", false));
				return;
			}
			if (LockNodes.hasConflictingSuccessor(sorted, ours, current.mode())
					&& this.bound.othersSeen(this.locks.port().nanoTime())) {
				if (this.keeping.isKept()) {
					this.locks.releasedOnRequest();
					releaseNode();
				}
				dispatch();
			}
		}
		finally {
			unlock();
		}
	}

	private void watchFailed(ActiveLock current) {
		lock();
		try {
			if (this.node == current) {
				this.watching = false;
				if (this.keeping.isKept()) {
					releaseNode();
					dispatch();
				}
			}
		}
		finally {
			unlock();
		}
	}

	private void lock() {
		this.mutex.lock();
	}

	/**
	 * Release the lock, then run what was decided under it, in order: ZooKeeper requests (a
	 * delete before the create that follows it) and completions of waiting calls.
	 */
	private void unlock() {
		Runnable ready = null;
		if (this.mutex.getHoldCount() == 1 && !this.deferred.isEmpty()) {
			ready = Deferred.take(this.deferred);
		}
		this.mutex.unlock();
		if (ready != null) {
			ready.run();
		}
	}

}
