package dev.zklock.leader;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Which election nodes of one group are ours: the one we take part with, those we gave up
 * (after a lost session, a yield, a deleted or foreign node) and must still delete, and the
 * protected ids of creates that may have made nodes we do not know of (a create whose reply was
 * lost, or one the client retried after it was applied). A create is resolved only by a read of
 * the children sent after its reply came: a read sent while it was still in flight may be served
 * before it. Not thread-safe: {@link ElectionState} calls it under its own lock.
 */
final class ElectionNodeSet {

	private @Nullable String current;

	private final Set<String> abandoned = new LinkedHashSet<>();

	/**
	 * The creates not resolved yet, by protected id: the local time their reply came, or
	 * {@code -1} while they are in flight.
	 */
	private final Map<String, Long> creates = new LinkedHashMap<>();

	/**
	 * The creates in flight when the election was left: their nodes are deleted when they are
	 * answered.
	 */
	private final Set<String> released = new LinkedHashSet<>();

	private long clock;

	@Nullable String current() {
		return this.current;
	}

	boolean isCurrent(String path) {
		return path.equals(this.current);
	}

	/**
	 * Remember a create about to be sent, by its protected id, until a read of the group's
	 * children made after its reply has looked for every node it made.
	 */
	void createSent(String id) {
		this.creates.put(id, -1L);
	}

	/**
	 * Record a create's reply, with the node it made if it says.
	 */
	CreateAnswer createAnswered(String id, @Nullable String path, boolean running) {
		if (this.released.remove(id)) {
			return CreateAnswer.SEARCH;
		}
		if (!this.creates.containsKey(id)) {
			return CreateAnswer.DELETE; // Given up in a search already.
		}
		this.creates.put(id, ++this.clock);
		if (path == null) {
			return CreateAnswer.UNKNOWN;
		}
		if (running && this.current == null) {
			this.current = path;
			return CreateAnswer.ADOPTED;
		}
		return CreateAnswer.DELETE;
	}

	/**
	 * Return the local time of a read about to be sent: it may resolve the creates answered
	 * before it.
	 */
	long readSent() {
		return ++this.clock;
	}

	/**
	 * Look, among the group's children just read, for the nodes of the creates remembered, and
	 * forget those creates: the read came after their replies, so a node it does not show was
	 * never made. A node of theirs becomes ours if we have none; every other is abandoned.
	 * @return whether a node was adopted
	 */
	boolean resolveCreates(long readAt, String groupPath, List<String> children) {
		boolean adopted = false;
		List<String> resolved = new ArrayList<>();
		this.creates.forEach((id, answeredAt) -> {
			if (answeredAt >= 0 && answeredAt < readAt) {
				resolved.add(id);
			}
		});
		for (String id : resolved) {
			this.creates.remove(id);
			String prefix = ElectionNodes.protectedPrefix(id);
			for (String child : children) {
				if (!child.startsWith(prefix)) {
					continue;
				}
				String path = ElectionNodes.path(groupPath, child);
				if (isCurrent(path)) {
					continue;
				}
				if (this.current == null) {
					this.current = path;
					adopted = true;
				}
				else {
					this.abandoned.add(path);
				}
			}
		}
		return adopted;
	}

	/**
	 * Return whether a create was answered without the node it made, or a node may be left of
	 * it: a read of the children must look for it.
	 */
	boolean hasUnresolvedCreates() {
		return this.creates.values().stream().anyMatch((answeredAt) -> answeredAt >= 0);
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
	 * Give up our node, every abandoned one and the creates not resolved yet, to delete them all.
	 */
	Release releaseAll() {
		abandonCurrent();
		List<String> answered = new ArrayList<>();
		this.creates.forEach((id, answeredAt) -> {
			if (answeredAt >= 0) {
				answered.add(id);
			}
			else {
				this.released.add(id);
			}
		});
		Release release = new Release(List.copyOf(this.abandoned), answered);
		this.abandoned.clear();
		this.creates.clear();
		return release;
	}

	/**
	 * What to do with a create's reply.
	 */
	enum CreateAnswer {

		/** Its node is ours now. */
		ADOPTED,
		/** Its node is not wanted: delete it. */
		DELETE,
		/** It was in flight when the election was left: delete its node, and any other it made. */
		SEARCH,
		/** Its outcome is unknown: a read of the children looks for its node. */
		UNKNOWN

	}

	/**
	 * What is left to delete when the election is left: nodes by path, and nodes of creates
	 * still to be looked for by their ids.
	 */
	record Release(List<String> nodes, List<String> createIds) {
	}

}
