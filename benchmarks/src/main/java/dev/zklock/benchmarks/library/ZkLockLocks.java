package dev.zklock.benchmarks.library;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;

/**
 * zklock's {@code ZkLockTemplate}, with the default wait time of the auto-configuration.
 */
final class ZkLockLocks implements ExclusiveLocks, SharedLocks, SkippingLocks {

	private final ZkLockTemplate template;

	ZkLockLocks(CuratorFramework client, String basePath, Duration waitTime) {
		this.template = new ZkLockTemplate(client, basePath, waitTime, false);
	}

	@Override
	public void runExclusive(String key, Runnable work) {
		this.template.execute(key, (lock) -> {
			work.run();
			return null;
		});
	}

	@Override
	public void runShared(String key, Runnable work) {
		this.template.execute(key, LockMode.SHARED, null, (lock) -> {
			work.run();
			return null;
		});
	}

	@Override
	public boolean runIfFree(String key, Runnable work) {
		return this.template.tryExecute(key, LockMode.EXCLUSIVE, Duration.ZERO, (lock) -> {
			work.run();
			return Boolean.TRUE;
		}).isPresent();
	}

	@Override
	public void close() {
		this.template.close();
	}

}
