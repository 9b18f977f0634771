package dev.zklock.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * The keys this instance uses now, each a {@link KeyLock}, and what they share: the port to
 * ZooKeeper, the settings, the connection's guard, and the bound on kept keys. A key is here only
 * while it has calls, holders or a node, so the map does not grow with the number of keys ever
 * used.
 */
final class KeyLocks {

	private final Map<String, KeyLock> keys = new ConcurrentHashMap<>();

	private final ZooKeeperPort port;

	private final LockSettings settings;

	private final KeyNodes keyNodes;

	private final Stalls stalls;

	private final SessionGuard guard;

	private final Pauses pauses;

	private final LockCallListener listener;

	private final int tokensPerWrite;

	private final NodeOwners owners;

	private final AtomicInteger keptCount = new AtomicInteger();

	private final LongAdder handoffs = new LongAdder();

	private final LongAdder reuses = new LongAdder();

	private final LongAdder releasesOnRequest = new LongAdder();

	KeyLocks(ZooKeeperPort port, LockSettings settings, KeyNodes keyNodes, Stalls stalls, SessionGuard guard,
			Pauses pauses, LockCallListener listener, int tokensPerWrite, NodeOwners owners) {
		this.port = port;
		this.settings = settings;
		this.keyNodes = keyNodes;
		this.stalls = stalls;
		this.guard = guard;
		this.pauses = pauses;
		this.listener = listener;
		this.tokensPerWrite = tokensPerWrite;
		this.owners = owners;
	}

	KeyLock obtain(String key, String keyPath) {
		KeyLock existing = this.keys.get(key);
		if (existing != null) {
			return existing;
		}
		// A key lock is made by nearly every uncontended call (the last release retires it):
		// made and put without computeIfAbsent's function, at the cost of an unused one when two
		// threads make the key's first at once.
		KeyLock made = new KeyLock(key, keyPath, this);
		existing = this.keys.putIfAbsent(key, made);
		return (existing != null) ? existing : made;
	}

	List<KeyLock> all() {
		return List.copyOf(this.keys.values());
	}

	void retire(KeyLock keyLock) {
		this.keys.remove(keyLock.key(), keyLock);
	}

	/**
	 * Start tracking a node that was just granted.
	 */
	ActiveLock activate(String key, LockNode node, Runnable onChange) {
		ActiveLock lock = new ActiveLock(key, node, this.port, this.pauses, this.listener, this.tokensPerWrite, onChange);
		this.guard.add(lock, this.port);
		return lock;
	}

	boolean reserveKept() {
		if (this.keptCount.incrementAndGet() > this.settings.keepMaxKeys()) {
			this.keptCount.decrementAndGet();
			return false;
		}
		return true;
	}

	void releaseKept() {
		this.keptCount.decrementAndGet();
	}

	void handedOff() {
		this.handoffs.increment();
	}

	void reused() {
		this.reuses.increment();
	}

	void releasedOnRequest() {
		this.releasesOnRequest.increment();
	}

	LockCounts counts() {
		return new LockCounts(this.handoffs.sum(), this.reuses.sum(), this.releasesOnRequest.sum(),
				this.keptCount.get());
	}

	List<KeptLockInfo> kept() {
		List<KeptLockInfo> kept = new ArrayList<>();
		for (KeyLock keyLock : this.keys.values()) {
			KeptLockInfo info = keyLock.keptInfo();
			if (info != null) {
				kept.add(info);
			}
		}
		return kept;
	}

	List<String> othersWaitFor() {
		List<String> keys = new ArrayList<>();
		for (KeyLock keyLock : this.keys.values()) {
			if (keyLock.othersWait()) {
				keys.add(keyLock.key());
			}
		}
		keys.sort(null);
		return keys;
	}

	ZooKeeperPort.Timer schedule(Runnable task, long nanos) {
		return this.port.schedule(task, nanos);
	}

	void later(Runnable task) {
		this.port.execute(task);
	}

	void close() {
		this.keys.values().forEach(KeyLock::close);
	}

	ZooKeeperPort port() {
		return this.port;
	}

	LockSettings settings() {
		return this.settings;
	}

	KeyNodes keyNodes() {
		return this.keyNodes;
	}

	NodeOwners owners() {
		return this.owners;
	}

	Stalls stalls() {
		return this.stalls;
	}

	SessionGuard guard() {
		return this.guard;
	}

}
