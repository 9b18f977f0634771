package dev.zklock.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.KeeperException.Code;

import dev.zklock.zookeeper.ZooKeeperPort;

/**
 * The first-use transactions of one lock request whose outcome is unknown: the reply was lost,
 * or the transaction failed with NODEEXISTS, which a retry of an applied transaction also gets.
 * Each may have created a lock node whose name the request never learned, so each is remembered
 * by its protected id until a read of the key's children has looked for its node and deleted it.
 * A transaction sent while disconnected goes out with whichever session the client has when it
 * reconnects, so the ids are kept whatever the session. Guarded by the request's lock.
 */
final class UnknownTransactions {

	private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private static final int ATTEMPTS = 600;

	private final ZooKeeperPort port;

	private final String keyPath;

	private final List<String> ids = new ArrayList<>(1);

	UnknownTransactions(ZooKeeperPort port, String keyPath) {
		this.port = port;
		this.keyPath = keyPath;
	}

	void add(String id) {
		this.ids.add(id);
	}

	/**
	 * Delete the nodes of these transactions among the children just read, and forget them: the
	 * read came after the transactions, so a node it does not show was never created.
	 */
	void removeFrom(List<String> children) {
		delete(this.ids, children);
		this.ids.clear();
	}

	/**
	 * Hand the ids over to a background search, when the request ends without a read to come.
	 * @param also the id of a transaction still in flight, or {@code null}
	 */
	void removeInBackground(@org.jspecify.annotations.Nullable String also) {
		List<String> pending = new ArrayList<>(this.ids);
		if (also != null) {
			pending.add(also);
		}
		this.ids.clear();
		if (!pending.isEmpty()) {
			search(pending, ATTEMPTS);
		}
	}

	/**
	 * Look for the node of one transaction in the background, whatever else is remembered.
	 */
	void searchFor(String id) {
		search(List.of(id), ATTEMPTS);
	}

	/**
	 * Read the children until a read succeeds or the key node is gone (at most the given number
	 * of tries, a little apart), deleting what the transactions created.
	 */
	private void search(List<String> pending, int attempts) {
		this.port.getChildren(this.keyPath, null, (rc, read) -> {
			if (rc == Code.OK && read != null) {
				delete(pending, read.names());
			}
			else if (rc != Code.NONODE && attempts > 1) {
				this.port.schedule(() -> search(pending, attempts - 1), RETRY_NANOS);
			}
		});
	}

	private void delete(List<String> pending, List<String> children) {
		for (String id : pending) {
			String prefix = LockNodes.protectedPrefix(id);
			for (String child : children) {
				if (child.startsWith(prefix)) {
					this.port.delete(LockNodes.path(this.keyPath, child), null);
				}
			}
		}
	}

}
