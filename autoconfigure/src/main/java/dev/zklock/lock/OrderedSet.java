package dev.zklock.lock;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A thread-safe set that is iterated in the order its elements were added, through a snapshot:
 * the connection events that act on every held lock or waiting request then act on them in the
 * same order every time, which the deterministic simulator of the tests relies on (a concurrent
 * hash set of identity-hashed objects would not).
 */
final class OrderedSet<T> {

	private final Set<T> elements = new LinkedHashSet<>();

	synchronized boolean add(T element) {
		return this.elements.add(element);
	}

	synchronized boolean remove(T element) {
		return this.elements.remove(element);
	}

	synchronized int size() {
		return this.elements.size();
	}

	synchronized boolean isEmpty() {
		return this.elements.isEmpty();
	}

	/**
	 * Return the elements now, in the order they were added.
	 */
	synchronized List<T> snapshot() {
		return List.copyOf(this.elements);
	}

}
