package dev.zklock.leader;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Which election nodes of one group are ours: the one we take part with, and those we gave up
 * (after a lost session, a yield, a deleted or foreign node) and must still delete. Not
 * thread-safe: {@link ElectionState} calls it under its own lock.
 */
final class ElectionNodeSet {

	private @Nullable String current;

	private final Set<String> abandoned = new LinkedHashSet<>();

	@Nullable String current() {
		return this.current;
	}

	boolean isCurrent(String path) {
		return path.equals(this.current);
	}

	/**
	 * Take a newly created node as ours, unless we have one.
	 * @return whether the node is ours
	 */
	boolean adopt(String created) {
		if (this.current == null) {
			this.current = created;
			return true;
		}
		return false;
	}

	/**
	 * Give up our node, to be deleted.
	 */
	void abandonCurrent() {
		if (this.current != null) {
			this.abandoned.add(this.current);
			this.current = null;
		}
	}

	List<String> abandoned() {
		return List.copyOf(this.abandoned);
	}

	void deleted(String path) {
		this.abandoned.remove(path);
	}

	/**
	 * Give up our node and every abandoned one, to delete them all.
	 */
	List<String> releaseAll() {
		abandonCurrent();
		List<String> nodes = List.copyOf(this.abandoned);
		this.abandoned.clear();
		return nodes;
	}

}
