package dev.zklock.shedlock;

import java.util.Optional;

import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * The lock a job sees: ShedLock's {@link AbstractSimpleLock} makes it unusable once unlocked or
 * extended; the grant behind it carries on to the extended lock.
 */
final class ZkSimpleLock extends AbstractSimpleLock {

	private final ShedLockGrant grant;

	ZkSimpleLock(LockConfiguration lockConfiguration, ShedLockGrant grant) {
		super(lockConfiguration);
		this.grant = grant;
	}

	@Override
	protected void doUnlock() {
		this.grant.unlock();
	}

	@Override
	protected Optional<SimpleLock> doExtend(LockConfiguration newConfiguration) {
		return this.grant.extend(newConfiguration) ? Optional.of(new ZkSimpleLock(newConfiguration, this.grant))
				: Optional.empty();
	}

}
