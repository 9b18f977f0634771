package dev.zklock;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * Tells <a href="https://github.com/reactor/BlockHound">BlockHound</a>, when an application
 * installs it, about the one call on zklock's non-blocking path that it would report: Curator
 * names a new lock node with {@link java.util.UUID#randomUUID()}, which reads the kernel's
 * non-blocking random source ({@code /dev/urandom}). Nothing else is allowed: every other
 * blocking call on a non-blocking thread is still reported. Loaded by BlockHound through
 * {@link java.util.ServiceLoader}.
 *
 * @since 0.1.0
 */
public class ZkLockBlockHoundIntegration implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.allowBlockingCallsInside("org.apache.curator.framework.imps.ProtectedMode", "resetProtectedId");
	}

}
