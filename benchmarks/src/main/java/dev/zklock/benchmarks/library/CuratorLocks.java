package dev.zklock.benchmarks.library;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.utils.ZKPaths;

/**
 * Curator's {@code InterProcessMutex} and {@code InterProcessReadWriteLock} used directly: one
 * instance per key shared by the threads of the process (as Spring Integration's registry does),
 * or one mutex per key and thread. A shared instance wakes every thread of the process waiting on
 * it at each release; an instance per thread has each waiter watch its own predecessor, so a
 * release wakes only the next one: the strongest way to use the mutex under contention. The
 * read-write locks are always shared.
 */
final class CuratorLocks implements FencedLocks, SharedLocks, SkippingLocks {

	private final CuratorFramework client;

	private final String basePath;

	private final long waitSeconds;

	private final boolean mutexPerThread;

	private final Map<String, InterProcessMutex> mutexes = new ConcurrentHashMap<>();

	private final ThreadLocal<Map<String, InterProcessMutex>> threadMutexes = ThreadLocal.withInitial(HashMap::new);

	private final Map<String, InterProcessReadWriteLock> readWriteLocks = new ConcurrentHashMap<>();

	CuratorLocks(CuratorFramework client, String basePath, long waitSeconds, boolean mutexPerThread) {
		this.client = client;
		this.basePath = basePath;
		this.waitSeconds = waitSeconds;
		this.mutexPerThread = mutexPerThread;
	}

	@Override
	public void runExclusive(String key, Runnable work) throws Exception {
		InterProcessMutex mutex = mutex(key);
		if (!mutex.acquire(this.waitSeconds, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Timed out waiting for the lock on " + key);
		}
		try {
			work.run();
		}
		finally {
			mutex.release();
		}
	}

	/**
	 * Run the plain lock cycle: {@code InterProcessMutex} has no fencing token to ask for.
	 */
	@Override
	public long runFenced(String key, Runnable work) throws Exception {
		runExclusive(key, work);
		return NO_TOKEN;
	}

	@Override
	public void runShared(String key, Runnable work) throws Exception {
		InterProcessMutex readLock = this.readWriteLocks
			.computeIfAbsent(key, (k) -> new InterProcessReadWriteLock(this.client, path("rw", k)))
			.readLock();
		if (!readLock.acquire(this.waitSeconds, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Timed out waiting for the read lock on " + key);
		}
		try {
			work.run();
		}
		finally {
			readLock.release();
		}
	}

	@Override
	public boolean runIfFree(String key, Runnable work) throws Exception {
		InterProcessMutex mutex = mutex(key);
		if (!mutex.acquire(0, TimeUnit.MILLISECONDS)) {
			return false;
		}
		try {
			work.run();
			return true;
		}
		finally {
			mutex.release();
		}
	}

	private InterProcessMutex mutex(String key) {
		Map<String, InterProcessMutex> mutexes = this.mutexPerThread ? this.threadMutexes.get() : this.mutexes;
		return mutexes.computeIfAbsent(key, (k) -> new InterProcessMutex(this.client, path("mutex", k)));
	}

	private String path(String kind, String key) {
		return ZKPaths.makePath(this.basePath, kind, key);
	}

}
