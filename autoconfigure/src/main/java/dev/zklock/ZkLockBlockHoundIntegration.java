package dev.zklock;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * Tells <a href="https://github.com/reactor/BlockHound">BlockHound</a>, when an application
 * installs it, about the waits on zklock's non-blocking path that it would report: Curator
 * names a new lock node with {@link java.util.UUID#randomUUID()}, which reads the kernel's
 * non-blocking random source ({@code /dev/urandom}); the lock core's short mutexes (a key's
 * state, a lock request's, a grant batch's token), which are never held across a ZooKeeper
 * request or user code; and the ZooKeeper client's queue of requests to send, whose lock its
 * send thread holds only to take a request off it (a request is queued on the calling thread,
 * never sent or waited for there); and the queue of the lock core's scheduler, whose lock a
 * cancelled timer takes to leave the queue (an asynchronous release cancels its timer on the
 * thread that completes it) and the scheduler's thread holds only to take a task. Each may park
 * a thread for the few microseconds another one holds the lock. Reported as blocking, the error
 * is thrown from inside the lock's wait: it leaves the lock's queue broken, so that a thread
 * waiting on it later is never woken (the client's own threads, and every call on the client,
 * would hang; the scheduler's thread, every timer of the lock core and the template's close would
 * too), or surfaces in the middle of a state change and leaves a key locked. Nothing else is
 * allowed: every other blocking call on a non-blocking thread is still reported. Loaded by
 * BlockHound through {@link java.util.ServiceLoader}.
 *
 * @since 0.1.0
 */
public class ZkLockBlockHoundIntegration implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.allowBlockingCallsInside("org.apache.curator.framework.imps.ProtectedMode", "resetProtectedId");
		// Queuing a request: the client's queue lock, which its send thread holds only to take
		// a request off the queue.
		builder.allowBlockingCallsInside("org.apache.zookeeper.ClientCnxn", "queuePacket");
		// Cancelling a timer: the scheduler's queue lock, which its thread holds only to take a
		// task off the queue.
		builder.allowBlockingCallsInside("dev.zklock.zookeeper.CuratorPort$ScheduledTimer", "cancel");
		builder.allowBlockingCallsInside("dev.zklock.lock.KeyLock", "lock");
		builder.allowBlockingCallsInside("dev.zklock.lock.NodeAcquisition", "acquire");
		builder.allowBlockingCallsInside("dev.zklock.lock.GrantBatch", "acquire");
		builder.allowBlockingCallsInside("dev.zklock.lock.ActiveLock", "lockTokens");
	}

}
