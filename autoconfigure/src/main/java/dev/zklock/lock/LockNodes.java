package dev.zklock.lock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;

/**
 * The names of lock nodes and the order among them. A key's children are named, after a
 * protected-mode prefix, like those of Curator's {@code InterProcessReadWriteLock}
 * ({@code __WRIT__} exclusive, {@code __READ__} shared) or, with {@link LockNodeNames#MUTEX},
 * like those of Curator's {@code InterProcessMutex} ({@code lock-} exclusive,
 * {@code __READ__lock-} shared). Every naming is read whatever the instance's own: a node is
 * shared if its name holds {@code __READ__}, exclusive otherwise, and the nodes are ordered by
 * their sequence, the text after the last {@code lock-} or, in a name without one, after the
 * marker, as each Curator recipe orders its own.
 */
final class LockNodes {

	static final String READ = "__READ__";

	static final String WRITE = "__WRIT__";

	static final String MUTEX = "lock-";

	private static final String PROTECTED_PREFIX = "_c_";

	private static final int SEQUENCE_LENGTH = 10;

	private static final String LAST_SEQUENCE = Integer.toString(Integer.MAX_VALUE);

	private LockNodes() {
	}

	static String marker(LockMode mode, LockNodeNames names) {
		if (names == LockNodeNames.MUTEX) {
			return (mode == LockMode.EXCLUSIVE) ? MUTEX : READ + MUTEX;
		}
		return (mode == LockMode.EXCLUSIVE) ? WRITE : READ;
	}

	static String protectedPrefix(String id) {
		return PROTECTED_PREFIX + id + "-";
	}

	static String protectedName(String id, LockMode mode, LockNodeNames names) {
		return protectedPrefix(id) + marker(mode, names);
	}

	static boolean isLockNode(String child) {
		return child.contains(WRITE) || child.contains(READ) || child.contains(MUTEX);
	}

	static boolean isExclusive(String child) {
		return isLockNode(child) && !child.contains(READ);
	}

	/**
	 * Return the lock nodes among the children, lowest sequence first, the nodes
	 * {@linkplain #isPastEnd past the end} of the key node's counter after all others.
	 */
	static List<String> sorted(List<String> children) {
		List<String> locks = new ArrayList<>(children.size());
		for (String child : children) {
			if (isLockNode(child)) {
				locks.add(child);
			}
		}
		locks.sort(Comparator.comparing(LockNodes::isPastEnd).thenComparing(LockNodes::sequence));
		return locks;
	}

	/**
	 * Return the node that the node at the given index waits for, or {@code null} if it holds
	 * the key: for an exclusive node the one before it, for a shared node the nearest lower
	 * exclusive node.
	 */
	static @Nullable String predecessor(List<String> sorted, int index, LockMode mode) {
		if (mode == LockMode.EXCLUSIVE) {
			return (index == 0) ? null : sorted.get(index - 1);
		}
		for (int i = index - 1; i >= 0; i--) {
			if (isExclusive(sorted.get(i))) {
				return sorted.get(i);
			}
		}
		return null;
	}

	/**
	 * Return whether a node after the one at the given index waits for it: another instance
	 * wants the key.
	 */
	static boolean hasConflictingSuccessor(List<String> sorted, int index, LockMode mode) {
		for (int i = index + 1; i < sorted.size(); i++) {
			if (mode == LockMode.EXCLUSIVE || isExclusive(sorted.get(i))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return whether the node was named past the end of the key node's sequence counter, so
	 * that its name says nothing of its order. ZooKeeper names a sequential child after its
	 * parent's {@code cversion}, an {@code int} that its data tree never moves past
	 * {@value Integer#MAX_VALUE}: every create from then on is named {@code 2147483647} (and
	 * fails as existing while such a node lives), or, when it follows a create not yet applied,
	 * after the wrapped negative value ({@code -2147483648}, which sorts first as text).
	 */
	static boolean isPastEnd(String child) {
		String sequence = sequence(child);
		return sequence.length() != SEQUENCE_LENGTH || !isDigits(sequence) || sequence.equals(LAST_SEQUENCE);
	}

	private static boolean isDigits(String text) {
		for (int i = 0; i < text.length(); i++) {
			if (!Character.isDigit(text.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	static String sequence(String child) {
		int mutex = child.lastIndexOf(MUTEX);
		if (mutex >= 0) {
			return child.substring(mutex + MUTEX.length());
		}
		int write = child.lastIndexOf(WRITE);
		return (write >= 0) ? child.substring(write + WRITE.length())
				: child.substring(child.lastIndexOf(READ) + READ.length());
	}

	/**
	 * Return the path of a child.
	 */
	static String path(String parent, String child) {
		return parent.endsWith("/") ? parent + child : parent + "/" + child;
	}

	/**
	 * Return the last name of a path.
	 */
	static String name(String path) {
		return path.substring(path.lastIndexOf('/') + 1);
	}

	/**
	 * Return the parent of a path ({@code /} for a top-level node).
	 */
	static String parent(String path) {
		int slash = path.lastIndexOf('/');
		return (slash <= 0) ? "/" : path.substring(0, slash);
	}

}
