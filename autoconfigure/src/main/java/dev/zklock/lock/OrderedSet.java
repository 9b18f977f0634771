package dev.zklock.lock;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A thread-safe set that is iterated in the order its elements were added, through a snapshot:
 * the connection events that act on every held lock or waiting request then act on them in the
 * same order every time, which the deterministic simulator of the tests relies on (a concurrent
 * hash set of identity-hashed objects would not).
 * <p>
 * Every call adds and removes elements (the held locks and waiting requests of a session), from
 * every calling thread at once, and only connection events take a snapshot; so adding and
 * removing take no lock: each element is kept with the number of its addition, and a snapshot
 * sorts by it.
 */
final class OrderedSet<T> {

	private final Map<T, Long> elements;

	private final AtomicLong additions = new AtomicLong();

	OrderedSet() {
		this.elements = new ConcurrentHashMap<>();
	}

	/**
	 * Make a set sized for the few elements it usually has.
	 * @param expected how many elements it usually has
	 */
	OrderedSet(int expected) {
		this.elements = new ConcurrentHashMap<>(expected);
	}

	boolean add(T element) {
		return this.elements.putIfAbsent(element, this.additions.getAndIncrement()) == null;
	}

	boolean remove(T element) {
		return this.elements.remove(element) != null;
	}

	int size() {
		return this.elements.size();
	}

	boolean isEmpty() {
		return this.elements.isEmpty();
	}

	/**
	 * Return the elements now, in the order they were added.
	 */
	List<T> snapshot() {
		return this.elements.entrySet()
			.stream()
			.sorted(Map.Entry.comparingByValue())
			.map(Map.Entry::getKey)
			.toList();
	}

}
