package dev.zklock.lock;

import java.util.ArrayList;
import java.util.List;

import dev.zklock.LockMode;

/**
 * The order of the lock nodes of a key, for tools that show it: which nodes hold the key and
 * which wait, by the rule every instance applies.
 *
 * @since 0.2.0
 */
public final class LockQueues {

	private LockQueues() {
	}

	/**
	 * Return the lock nodes among a key node's children, in queue order (lowest sequence first).
	 * @param children the names of the key node's children
	 * @return the lock nodes' names
	 */
	public static List<String> ordered(List<String> children) {
		return LockNodes.sorted(children);
	}

	/**
	 * Return the mode a lock node's name says.
	 * @param name the node's name
	 * @return its mode
	 */
	public static LockMode mode(String name) {
		return LockNodes.isExclusive(name) ? LockMode.EXCLUSIVE : LockMode.SHARED;
	}

	/**
	 * Return, for each node of a queue, whether it holds the key (nothing conflicting below it).
	 * @param ordered the nodes in queue order
	 * @return whether each holds the key, in the same order
	 */
	public static List<Boolean> granted(List<String> ordered) {
		List<Boolean> granted = new ArrayList<>(ordered.size());
		for (int i = 0; i < ordered.size(); i++) {
			granted.add(LockNodes.predecessor(ordered, i, mode(ordered.get(i))) == null);
		}
		return granted;
	}

}
