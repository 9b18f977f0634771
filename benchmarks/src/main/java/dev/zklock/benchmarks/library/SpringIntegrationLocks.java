package dev.zklock.benchmarks.library;

import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

/**
 * Spring Integration's {@code ZookeeperLockRegistry}: {@code obtain(key).lock()}, then
 * {@code unlock()}.
 */
final class SpringIntegrationLocks implements ExclusiveLocks {

	private final ZookeeperLockRegistry registry;

	SpringIntegrationLocks(CuratorFramework client, String basePath) {
		this.registry = new ZookeeperLockRegistry(client, basePath);
	}

	@Override
	public void runExclusive(String key, Runnable work) {
		Lock lock = this.registry.obtain(key);
		lock.lock();
		try {
			work.run();
		}
		finally {
			lock.unlock();
		}
	}

	@Override
	public void close() {
		this.registry.destroy();
	}

}
