package dev.zklock.benchmarks.library;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import dev.zklock.LockMode;
import dev.zklock.ZkLockTemplate;
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockNodeNames;
import dev.zklock.lock.LockSettings;

/**
 * zklock's {@code ZkLockTemplate}, with the default wait time of the auto-configuration and
 * the given lock settings.
 */
final class ZkLockLocks implements FencedLocks, SharedLocks, SkippingLocks {

	/** The defaults: local handoff, nothing kept. */
	static final LockSettings DEFAULTS = LockSettings.DEFAULTS;

	/** A lock node per call, as the first version had. */
	static final LockSettings PER_CALL = LockSettings.PER_CALL;

	/** The defaults, but idle locks kept for a second. */
	static final LockSettings KEEP = new LockSettings(DEFAULTS.handoff(), DEFAULTS.handoffMaxGrants(),
			DEFAULTS.handoffMaxTime(), Duration.ofSeconds(1), DEFAULTS.keepMaxKeys());

	/** The defaults, the nodes named as Curator's mutex names its own. */
	static final LockSettings MUTEX_NAMES = DEFAULTS.withNodeNames(LockNodeNames.MUTEX);

	private final ZkLockTemplate template;

	ZkLockLocks(CuratorFramework client, String basePath, Duration waitTime, LockSettings settings) {
		this.template = new ZkLockTemplate(client, basePath, waitTime, false, LockCallListener.NONE, settings);
	}

	/**
	 * Return lock settings as the report states them, read from the record itself.
	 * @param settings the settings
	 * @return the text
	 */
	static String describe(LockSettings settings) {
		return settings.toString();
	}

	@Override
	public void runExclusive(String key, Runnable work) {
		this.template.execute(key, (lock) -> {
			work.run();
			return null;
		});
	}

	@Override
	public long runFenced(String key, Runnable work) {
		return this.template.execute(key, (lock) -> {
			long token = lock.fencingToken();
			work.run();
			return token;
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
