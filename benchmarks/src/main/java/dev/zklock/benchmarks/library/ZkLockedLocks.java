package dev.zklock.benchmarks.library;

import java.util.Map;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.benchmarks.spring.LockedWork;
import dev.zklock.benchmarks.spring.LockedWorkApplication;
import dev.zklock.benchmarks.spring.SpringApps;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * zklock's {@code @ZkLocked} on a bean of a Spring Boot application that uses the given client,
 * with the auto-configuration's defaults.
 */
final class ZkLockedLocks implements ExclusiveLocks {

	private final ConfigurableApplicationContext application;

	private final LockedWork work;

	ZkLockedLocks(CuratorFramework client, String basePath) {
		this.application = SpringApps.run(client, Map.of("zklock.lock.base-path", basePath),
				LockedWorkApplication.class);
		this.work = this.application.getBean(LockedWork.class);
	}

	@Override
	public void runExclusive(String key, Runnable work) {
		this.work.run(key, work);
	}

	@Override
	public void close() {
		this.application.close();
	}

}
