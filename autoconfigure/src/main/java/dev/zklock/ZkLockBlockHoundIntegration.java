package dev.zklock;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * Tells <a href="https://github.com/reactor/BlockHound">BlockHound</a>, when an application
 * installs it, about the one call on zklock's non-blocking path that it would report: Curator
 * names a new lock node with {@link java.util.UUID#randomUUID()}, which reads the kernel's
 * non-blocking random source ({@code /dev/urandom}); and the lock core's short mutexes (a key's
 * state, a lock request's, a grant batch's token), which are never held across a ZooKeeper
 * request or user code but may park a thread for the few microseconds another one holds them:
 * reported as blocking, the error would surface in the middle of a state change and leave a key
 * locked. Nothing else is allowed: every other blocking call on a non-blocking thread is still
 * reported. Loaded by BlockHound through {@link java.util.ServiceLoader}.
 *
 * @since 0.1.0
 */
public class ZkLockBlockHoundIntegration implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.allowBlockingCallsInside("org.apache.curator.framework.imps.ProtectedMode", "resetProtectedId");
		builder.allowBlockingCallsInside("dev.zklock.lock.KeyLock", "lock");
		builder.allowBlockingCallsInside("dev.zklock.lock.NodeAcquisition", "acquire");
		builder.allowBlockingCallsInside("dev.zklock.lock.GrantBatch", "acquire");
		builder.allowBlockingCallsInside("dev.zklock.lock.ActiveLock", "lockTokens");
	}

}
