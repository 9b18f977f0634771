package dev.zklock.lock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.jspecify.annotations.Nullable;

import dev.zklock.LockMode;

/**
 * The names of lock nodes and the order among them: children named like Curator's
 * {@code InterProcessReadWriteLock} ({@code __WRIT__} exclusive, {@code __READ__} shared, after a
 * protected-mode prefix), ordered by their sequence suffix.
 */
final class LockNodes {

	private static final Log logger = LogFactory.getLog(LockNodes.class);

	static final String READ = "__READ__";

	static final String WRITE = "__WRIT__";

	private static final String PROTECTED_PREFIX = "_c_";

	private LockNodes() {
	}

	static String marker(LockMode mode) {
		return (mode == LockMode.EXCLUSIVE) ? WRITE : READ;
	}

	/**
	 * Return a new id for a protected-mode name: a random UUID, from a random source that never
	 * reads a file (unlike {@link UUID#randomUUID()}), so that a non-blocking thread may start a
	 * lock request. The id needs to be unique among this client's creates, not unguessable.
	 */
	static String newProtectedId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long most = (random.nextLong() & ~0xf000L) | 0x4000L;
		long least = (random.nextLong() & ~(0xc0L << 56)) | (0x80L << 56);
		return new UUID(most, least).toString();
	}

	static String protectedPrefix(String id) {
		return PROTECTED_PREFIX + id + "-";
	}

	static String protectedName(String id, LockMode mode) {
		return protectedPrefix(id) + marker(mode);
	}

	static boolean isExclusive(String child) {
		return child.contains(WRITE);
	}

	/**
	 * Return the lock nodes among the children, lowest sequence first.
	 */
	static List<String> sorted(List<String> children) {
		List<String> locks = new ArrayList<>(children.size());
		for (String child : children) {
			if (child.contains(WRITE) || child.contains(READ)) {
				locks.add(child);
			}
		}
		locks.sort(Comparator.comparing(LockNodes::sequence));
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

	static String sequence(String child) {
		int write = child.lastIndexOf(WRITE);
		return (write >= 0) ? child.substring(write + WRITE.length())
				: child.substring(child.lastIndexOf(READ) + READ.length());
	}

	/**
	 * Return the client's current session id, or 0 when it has none.
	 */
	static long sessionId(CuratorFramework client) {
		try {
			return client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	/**
	 * Delete a lock node in the background, guaranteed: Curator retries after a reconnect, and
	 * the node goes with its session in any case.
	 * @param done told when the server answered, or {@code null}
	 */
	static void delete(CuratorFramework client, String path, @Nullable BackgroundCallback done) {
		try {
			client.delete().guaranteed().inBackground((c, event) -> {
				if (done != null) {
					done.processResult(c, event);
				}
			}).forPath(path);
		}
		catch (Exception ex) {
			logger.warn("Could not delete lock node " + path + "; it goes with its session", ex);
		}
	}

}
