package dev.zklock.lock;

import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;

import dev.zklock.leader.RaceThreads;

/**
 * Two calls of one instance asking for the same key's lock at once, when the key has none yet
 * (as every uncontended call finds it, the last release having retired the key's lock), explored
 * by Fray's controlled scheduler over the real {@link KeyLocks}: whatever the order, both get the
 * same key lock, and the registry holds that one. Two key locks for one key would queue their
 * calls apart: each would ask ZooKeeper for a node of its own, and a release would never hand the
 * key to the other's waiting calls. The registry is the engine's, over the deterministic
 * simulator's client and server ({@link QueuedPort}); no request is sent.
 */
@ExtendWith(FrayTestExtension.class)
class KeyLocksFrayTests {

	private static final int ITERATIONS = 1000;

	private static final String KEY = "k";

	@ConcurrencyTest(iterations = ITERATIONS)
	void twoCallsAskingForAKeysFirstLockAtOnceGetTheSameOne() {
		KeyLocks keyLocks = QueuedInstance.connected().engine().keyLocks();
		String keyPath = SimRun.BASE + "/" + KEY;
		KeyLock[] obtained = new KeyLock[2];
		Thread first = RaceThreads.start(() -> obtained[0] = keyLocks.obtain(KEY, keyPath));
		Thread second = RaceThreads.start(() -> obtained[1] = keyLocks.obtain(KEY, keyPath));
		RaceThreads.join(first, second);
		RaceThreads.check(obtained[0] == obtained[1], "the two calls got two key locks for one key");
		RaceThreads.check(keyLocks.all().size() == 1 && keyLocks.all().get(0) == obtained[0],
				"the registry does not hold the key lock the calls got: " + keyLocks.all());
	}

}
