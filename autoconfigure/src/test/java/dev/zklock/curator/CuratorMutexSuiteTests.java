package dev.zklock.curator;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.TestInterProcessMutexBase;
import org.junit.jupiter.api.AfterEach;

import dev.zklock.ZkLockTemplate;
import dev.zklock.lock.LockCallListener;
import dev.zklock.lock.LockSettings;

/**
 * Curator's own tests of its mutex, {@code TestInterProcessMutexBase} from curator-recipes' tests
 * jar, unmodified, run against {@link ZkInterProcessMutex}: reentrancy, two clients, a killed
 * session, a server stopped under a waiter, a namespace, container clean-up. Each client the tests
 * make gets a template of its own (an instance, as an application has), whose base path is the
 * tests' lock path.
 */
class CuratorMutexSuiteTests extends TestInterProcessMutexBase {

	private final Map<CuratorFramework, ZkLockTemplate> templates = new ConcurrentHashMap<>();

	@Override
	protected InterProcessLock makeLock(CuratorFramework client) {
		ZkLockTemplate template = this.templates.computeIfAbsent(client,
				(started) -> new ZkLockTemplate(started, LOCK_BASE_PATH, Duration.ofSeconds(10), false,
						LockCallListener.NONE, settings()));
		return new ZkInterProcessMutex(template, "mutex");
	}

	/**
	 * Return the settings of each client's template: the defaults here.
	 */
	LockSettings settings() {
		return LockSettings.DEFAULTS;
	}

	@AfterEach
	void closeTemplates() {
		this.templates.values().forEach(ZkLockTemplate::close);
	}

}
