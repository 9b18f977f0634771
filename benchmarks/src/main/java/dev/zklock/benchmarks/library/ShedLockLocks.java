package dev.zklock.benchmarks.library;

import java.time.Duration;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockingTaskExecutor.TaskResult;
import net.javacrumbs.shedlock.provider.zookeeper.curator.ZookeeperCuratorLockProvider;
import org.apache.curator.framework.CuratorFramework;

/**
 * ShedLock's Curator provider behind its {@code DefaultLockingTaskExecutor}, which is what
 * {@code @SchedulerLock} runs a job through. The lock is a persistent node holding a
 * "locked until" time, not an ephemeral node.
 */
final class ShedLockLocks implements SkippingLocks {

	/** How long ShedLock keeps the lock if its holder never releases it. */
	private static final Duration LOCK_AT_MOST_FOR = Duration.ofMinutes(30);

	private final LockingTaskExecutor executor;

	ShedLockLocks(CuratorFramework client, String basePath) {
		this.executor = new DefaultLockingTaskExecutor(new ZookeeperCuratorLockProvider(client, basePath));
	}

	@Override
	public boolean runIfFree(String key, Runnable work) throws Exception {
		LockConfiguration configuration = new LockConfiguration(ClockProvider.now(), key, LOCK_AT_MOST_FOR,
				Duration.ZERO);
		try {
			TaskResult<Object> result = this.executor.executeWithLock(() -> {
				work.run();
				return Boolean.TRUE;
			}, configuration);
			return result.wasExecuted();
		}
		catch (Exception | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

}
