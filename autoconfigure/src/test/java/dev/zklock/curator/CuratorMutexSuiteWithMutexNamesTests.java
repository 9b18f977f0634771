package dev.zklock.curator;

import dev.zklock.lock.LockNodeNames;
import dev.zklock.lock.LockSettings;

/**
 * Curator's own tests of its mutex ({@link CuratorMutexSuiteTests}) again, with the templates
 * naming their nodes as Curator's mutex names its own ({@code zklock.lock.node-names=mutex}).
 */
class CuratorMutexSuiteWithMutexNamesTests extends CuratorMutexSuiteTests {

	@Override
	LockSettings settings() {
		return LockSettings.DEFAULTS.withNodeNames(LockNodeNames.MUTEX);
	}

}
