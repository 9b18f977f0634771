package dev.zklock.lock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The key nodes this instance has seen exist, so that a request on a known key sends its create
 * and read together, and a request on a new key creates the key node with its lock node in one
 * transaction. Only a hint: a wrong guess costs one failed request, never correctness. Bounded:
 * forgotten wholesale past {@link #MAX_KEYS}.
 */
final class KeyNodes {

	static final int MAX_KEYS = 10_000;

	private final Map<String, Boolean> known = new ConcurrentHashMap<>();

	boolean isKnown(String keyPath) {
		return this.known.containsKey(keyPath);
	}

	void remember(String keyPath) {
		if (this.known.size() >= MAX_KEYS) {
			this.known.clear();
		}
		this.known.put(keyPath, Boolean.TRUE);
	}

	void forget(String keyPath) {
		this.known.remove(keyPath);
	}

}
